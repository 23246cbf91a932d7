import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli } from "./cli-helpers.ts";

// `audit tail` and `audit stats` read records nobody has verified: a record with a well-formed
// header may hold anything in its other fields. Each field they read is type-checked, and the
// counters have no prototype, so a crafted record is shown or counted, never a stack trace.

const MAC = "a".repeat(64);
const ZERO = "0".repeat(64);
let seq = 0;
/** A record with a valid-looking header and the given fields (its MAC is not checked by tail/stats). */
const line = (kind: string, fields: Record<string, unknown>) =>
  `${JSON.stringify({ v: 2, session: "crafted", seq: seq++, prev: ZERO, ts: "2026-01-01T00:00:00.000Z", kind, turn: 0, pid: 1, ...fields }).slice(0, -1)},"mac":"${MAC}"}`;

function craftedLog(): string {
  const dir = tempDir("gh-crafted-");
  const file = join(dir, "audit.jsonl");
  const lines = [
    line("session_start", { cwd: { toString: 1 }, config: null }),
    line("call_start", { toolCallId: { toString: 1 }, tool: { toString: 1 }, args: { path: { toString: 1 } } }),
    line("call_end", { toolCallId: [1], tool: { toString: 1 }, outcome: "constructor", paths: [null, 5, "x"] }),
    line("call_end", {
      toolCallId: "b",
      tool: "read",
      outcome: "__proto__",
      paths: [{ kind: "exec", commandLength: { toString: 1 } }],
    }),
    line("call_end", { toolCallId: "c", tool: "__proto__", outcome: { toString: 1 }, blockedBy: { toString: 1 } }),
    line("call_end", { toolCallId: "d", tool: "read", outcome: "executed", paths: [{ kind: "read", path: ["x"] }] }),
    line("gap", { cause: { toString: 1 }, lost: 0 }),
    line("session_end", { counts: { calls: { toString: 1 }, unfinished: "many" } }),
  ];
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("audit tail and stats on crafted records", () => {
  it("tail prints every crafted record as a row, exit 0, no stack trace", async () => {
    const file = craftedLog();
    const run = await runCli(["audit", "tail", "--lines", "100", file], { env: { GATEHOUSE_HOME: tempDir() } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const rows = run.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(8);
    expect(run.stdout).toContain("(not text)");
    expect(run.stdout).toContain("exec (0 chars)");
    expect(run.stdout).toContain("0 calls, 0 unfinished");
    expect(run.stdout).not.toContain("function");
  });

  it("stats counts 'constructor' and '__proto__' like any name, and non-strings under one label", async () => {
    const file = craftedLog();
    const env = { GATEHOUSE_HOME: tempDir() };
    const [text, json] = await Promise.all([
      runCli(["audit", "stats", file], { env }),
      runCli(["audit", "stats", "--json", file], { env }),
    ]);
    expect([text.code, text.stderr]).toEqual([0, ""]);
    expect(text.stdout).not.toContain("function");
    expect([json.code, json.stderr]).toEqual([0, ""]);
    const stats = JSON.parse(json.stdout) as {
      ended: number;
      outcomes: Record<string, number>;
      tools: Record<string, { ended: number; outcomes: Record<string, number> }>;
    };
    expect(stats.ended).toBe(4);
    // JSON.parse: an object literal's __proto__ would set the prototype instead of a key.
    expect(stats.outcomes).toEqual(JSON.parse('{"constructor":1,"__proto__":1,"(not a string)":1,"executed":1}'));
    expect(Object.keys(stats.tools).sort()).toEqual(["(not a string)", "__proto__", "read"]);
    expect(stats.tools.read?.outcomes).toEqual(JSON.parse('{"__proto__":1,"executed":1}'));
  });
});
