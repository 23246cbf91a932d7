import { execFileSync } from "node:child_process";
import { hash } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readAuditKey } from "../src/audit-key.ts";
import { projectLogSegments, sealSegments } from "../src/audit-location.ts";
import type { ToolAuditConfig } from "../src/config.ts";
import { recordExternalCalls } from "../src/external-calls.ts";
import { verifyAuditFile } from "../src/verify.ts";
import { fileLines, tempDir } from "./helpers.ts";

const CONFIG = {
  fsync: "batch",
  onWriteError: "stop",
  onFileReplaced: "stop",
  allowWorkspaceFile: false,
  verbatim: {},
} as ToolAuditConfig;

function hookHome() {
  const home = tempDir("gh-audit-home-");
  const cwd = tempDir("gh-audit-project-");
  const privateDir = (...segments: string[]) => {
    const dir = join(home, ...segments);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  };
  const log = join(home, ...projectLogSegments(cwd), "audit.jsonl");
  return { home, cwd, privateDir, log, options: { cwd, home, privateDir, version: "test" } };
}

describe("recordExternalCalls (an agent hook's process)", () => {
  it("a note that cannot be left for the call's end still closes the session: its start is written and sealed, never a run left open", async () => {
    const h = hookHome();
    // The note's place is taken by a folder: writing it fails after the session opened.
    const pending = h.privateDir("audit", "pending", projectLogSegments(h.cwd).at(-1) as string);
    mkdirSync(join(pending, `${hash("sha256", "toolu_1", "hex").slice(0, 40)}.json`));
    for (const onWriteError of ["stop", "warn"] as const) {
      const result = await recordExternalCalls({ ...h.options, config: { ...CONFIG, onWriteError } }, [
        { kind: "start", toolCallId: "toolu_1", tool: "Read", args: { file_path: "/x" } },
      ]);
      expect(result).toMatchObject({ ok: false, stops: onWriteError === "stop" });
    }
    const kinds = fileLines(h.log).map((line) => (JSON.parse(line) as { kind: string }).kind);
    expect(kinds).toEqual([
      ...["session_start", "call_start", "session_end"],
      ...["session_start", "call_start", "session_end"],
    ]);
    const key = readAuditKey(join(h.home, "keys", "audit.key"));
    const report = await verifyAuditFile(h.log, { key, sealDir: join(h.home, ...sealSegments(h.log)) });
    expect(report.summary).toContain("INTACT");
    expect(readdirSync(pending)).toHaveLength(1);
  });
});

describe("recordExternalCalls: the note that pairs a start with its end", () => {
  it("a FIFO in the note's place never blocks the hook: the start is refused as unwritable, the end recorded unpaired", async () => {
    const h = hookHome();
    const pending = h.privateDir("audit", "pending", projectLogSegments(h.cwd).at(-1) as string);
    execFileSync("mkfifo", [join(pending, `${hash("sha256", "toolu_2", "hex").slice(0, 40)}.json`)]);
    const args = { file_path: "/x" };
    const start = await recordExternalCalls({ ...h.options, config: CONFIG }, [
      { kind: "start", toolCallId: "toolu_2", tool: "Read", args },
    ]);
    expect(start).toMatchObject({ ok: false, stops: true, error: expect.stringMatching(/ENXIO|not a regular file/) });
    const end = await recordExternalCalls({ ...h.options, config: CONFIG }, [
      { kind: "end", toolCallId: "toolu_2", tool: "Read", args, outcome: "executed", isError: false },
    ]);
    expect(end).toEqual({ ok: true });
    const last = JSON.parse(fileLines(h.log).at(-2) as string) as Record<string, unknown>;
    expect(last).toMatchObject({ kind: "call_end", toolCallId: "toolu_2" });
    expect(last.startSession).toBeUndefined();
  }, 10_000);
});
