import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { AuditRecorder } from "../src/audit-recorder.ts";
import { createRedactor, mergeVerbatim } from "../src/redact.ts";
import { type AuditSink, openAuditSink } from "../src/sink.ts";

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

/** A recorder over a real sink, with the default redaction. */
export function recorderFor(sink: AuditSink, session?: string): AuditRecorder {
  return new AuditRecorder({
    sink,
    cwd: "/project",
    config: { fsync: sink.fsync, onWriteError: "stop" },
    redact: createRedactor({ verbatim: mergeVerbatim() }),
    ...(session ? { chain: { session } } : {}),
  });
}

/** Writes one complete session of `calls` read calls to `file`; returns its session id. */
export async function writeSession(
  file: string,
  options: { calls?: number; fsync?: "every" | "batch"; end?: boolean } = {},
): Promise<string> {
  const sink = openAuditSink({ file, fsync: options.fsync ?? "batch" });
  const recorder = recorderFor(sink);
  recorder.start();
  for (let i = 0; i < (options.calls ?? 3); i++) {
    recorder.turnStart();
    const args = { path: `file-${i}.txt` };
    recorder.callStart({ toolCallId: `call-${i}`, toolName: "read", args });
    recorder.callEnd(endEvent(`call-${i}`, "read", args));
  }
  if (options.end !== false) recorder.end();
  await sink.close();
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
