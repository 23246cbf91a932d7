import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { type AuditKey, keyFromSecret } from "../src/audit-key.ts";
import { AuditRecorder } from "../src/audit-recorder.ts";
import { type AuditSession, openAuditSession } from "../src/audit-session.ts";
import { createRedactor, mergeVerbatim } from "../src/redact.ts";
import type { AuditSink } from "../src/sink.ts";
import { type VerifyOptions, verifyAuditFile } from "../src/verify.ts";

/** A fresh temp directory. */
export function tempDir(prefix = "gh-audit-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The lines of a file, without the final empty piece after the last newline. */
export function fileLines(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Writes lines back (each followed by a newline). */
export function writeLines(file: string, lines: readonly string[]): void {
  writeFileSync(file, lines.map((l) => `${l}\n`).join(""));
}

/** An end event for a call that ran fine. */
export function endEvent(toolCallId: string, toolName: string, args: Record<string, unknown>): ToolExecutionEndEvent {
  return {
    type: "tool_execution_end",
    toolCallId,
    toolName,
    args,
    result: { content: [{ type: "text", text: "ok" }] },
    isError: false,
    outcome: "executed",
  };
}

/** A fresh random audit key (what `keys/audit.key` would hold). */
export function testKey(): AuditKey {
  return keyFromSecret(randomBytes(32), "test.key");
}

/** One test's log: a file, its seal folder and its key, in a fresh temp directory. */
export interface TestLog {
  file: string;
  sealDir: string;
  key: AuditKey;
  /** Verifies the log with its key and seals (options override). */
  verify(options?: VerifyOptions): ReturnType<typeof verifyAuditFile>;
}

/** A fresh log in a temp directory, with its own key and seal folder. */
export function testLog(key: AuditKey = testKey()): TestLog {
  const dir = tempDir();
  const log = { file: join(dir, "audit.jsonl"), sealDir: join(dir, "seals"), key };
  return { ...log, verify: (options = {}) => verifyAuditFile(log.file, { key, sealDir: log.sealDir, ...options }) };
}

/** A recorder over a sink without seals, with the default redaction (for sink-level tests). */
export function recorderFor(sink: AuditSink, key: AuditKey = testKey(), session?: string): AuditRecorder {
  return new AuditRecorder({
    sink,
    key,
    cwd: "/project",
    config: { fsync: sink.fsync, onWriteError: "stop" },
    redact: createRedactor({ verbatim: mergeVerbatim() }),
    ...(session ? { chain: { session } } : {}),
  });
}

/** Opens a sealed session on a test log (what the extension does at agent_start). */
export function openSession(
  log: Pick<TestLog, "file" | "sealDir" | "key">,
  fsync: "every" | "batch" = "batch",
  sealsPerBucket?: number,
): AuditSession {
  return openAuditSession({
    file: log.file,
    sealDir: log.sealDir,
    key: log.key,
    fsync,
    cwd: "/project",
    config: { fsync, onWriteError: "stop" },
    redact: createRedactor({ verbatim: mergeVerbatim() }),
    ...(sealsPerBucket !== undefined ? { sealsPerBucket } : {}),
  });
}

/**
 * Writes one sealed session of `calls` read calls (one turn each) to the log; returns its id.
 * With `end: false` the session is left open after its last committed turn (a killed run).
 */
export async function writeSession(
  log: Pick<TestLog, "file" | "sealDir" | "key">,
  options: { calls?: number; fsync?: "every" | "batch"; end?: boolean; sealsPerBucket?: number } = {},
): Promise<string> {
  const session = openSession(log, options.fsync ?? "batch", options.sealsPerBucket);
  const { recorder } = session;
  for (let i = 0; i < (options.calls ?? 3); i++) {
    recorder.turnStart();
    const args = { path: `file-${i}.txt` };
    recorder.callStart({ toolCallId: `call-${i}`, toolName: "read", args });
    recorder.callEnd(endEvent(`call-${i}`, "read", args));
    session.commit();
  }
  if (options.end !== false) await session.close();
  else await session.sink.close();
  return recorder.session;
}

/** The child process that appends a session through the real sink (loaded with jiti). */
export const WRITER_SCRIPT = fileURLToPath(new URL("./fixtures/audit-writer.mjs", import.meta.url));

/** A running writer child: its stdout lines as they arrive, and its exit. */
export interface Child {
  pid: number;
  /** Resolves with the first stdout line matching `test`. */
  waitFor(test: (line: string) => boolean): Promise<string>;
  send(text: string): void;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts the writer child: `node audit-writer.mjs FILE FSYNC COUNT [FLUSH_EVERY]`. */
export function startWriter(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, [WRITER_SCRIPT, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const seen: string[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    seen.push(line);
    for (const w of [...waiters]) {
      if (w.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal, stderr }));
  });
  return {
    pid: child.pid ?? -1,
    waitFor(test) {
      const hit = seen.find(test);
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        void exited.then((e) =>
          reject(new Error(`writer exited (${e.code ?? e.signal}) before the line: ${e.stderr}`)),
        );
      });
    },
    send: (text) => child.stdin.write(text),
    kill: (signal) => child.kill(signal),
    exited,
  };
}
