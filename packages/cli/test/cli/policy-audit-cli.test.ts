import { cpSync, existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { makeProject, type TestProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import {
  type AuditLine,
  auditPath,
  callRecords,
  expectIntactChains,
  readAuditLines,
  recordsKey,
  sealDirOf,
} from "./audit-lines.ts";
import { CLI, type CliRun, events, runCli, startCli, writeScript } from "./cli-helpers.ts";

// The demo scenario (`pnpm demo`) through the real CLI, then the audit commands on its audit file.

const DEMO = join(CLI, "..", "..", "..", "..", "examples", "demo");
const SCRIPT = join(DEMO, "script.json");

interface ScriptCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
const script = JSON.parse(readFileSync(SCRIPT, "utf8")) as { turns: { content: (ScriptCall | { type: "text" })[] }[] };
/** Every tool call of the demo script, with the (1-based) turn it belongs to. */
const calls = script.turns.flatMap((t, i) =>
  t.content.filter((c): c is ScriptCall => c.type === "toolCall").map((c) => ({ ...c, turn: i + 1 })),
);
const call = (id: string) => calls.find((c) => c.id === id) as ScriptCall & { turn: number };

/** The outcome each call of the demo must have: the refusal, the bad arguments and the missing file. */
const OUTCOME: Record<string, string> = {
  "write-env": "blocked",
  "bad-args": "invalid",
  "read-missing": "failed",
};
const outcomeOf = (id: string) => OUTCOME[id] ?? "executed";

/** Fields whose text the audit must never hold (tool-audit README, Redaction). */
const SECRET_FIELDS: Record<string, string[]> = {
  write: ["content"],
  edit: ["oldText", "newText"],
  bash: ["command"],
  grep: ["pattern"],
};

describe("the demo scenario through the CLI", () => {
  let p: TestProject;
  let run: CliRun;
  let lines: AuditLine[];
  let text: string;

  beforeAll(async () => {
    p = makeProject();
    cpSync(join(DEMO, "project"), p.dir, { recursive: true });
    run = await runCli(["run", "--script", SCRIPT, "--cwd", p.dir, "--json"], { env: p.env });
    ({ text, lines } = readAuditLines(auditPath(p)));
  }, 30_000);

  it("refuses .env, writes the allowed file, and finishes with exit 0", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(existsSync(join(p.dir, ".env"))).toBe(false);
    expect(readFileSync(join(p.dir, "playground/policy-allowed.txt"), "utf8")).toBe(
      call("write-allowed").arguments.content,
    );
    const endEnv = events(run.stdout).find((e) => e.type === "tool_execution_end" && e.toolCallId === "write-env");
    expect(endEnv).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths", isError: true });
  });

  it("the audit holds one start and one end per call, with the right outcome, in one intact chain", () => {
    expect(calls.length).toBeGreaterThanOrEqual(10);
    const sessions = expectIntactChains(lines, recordsKey(p.home));
    expect(sessions.size).toBe(1);
    expect(lines.at(-1)?.record.counts).toMatchObject({ calls: calls.length, ended: calls.length, unfinished: 0 });

    for (const c of calls) {
      const { starts, ends } = callRecords(lines, c.id);
      expect([c.id, starts.length, ends.length]).toEqual([c.id, 1, 1]);
      const [start, end] = [starts[0] as AuditLine, ends[0] as AuditLine];
      expect(start.line).toBeLessThan(end.line);
      expect(start.record).toMatchObject({ tool: c.name, turn: c.turn });
      expect(end.record).toMatchObject({ tool: c.name, turn: c.turn, outcome: outcomeOf(c.id) });
    }
    const ids = new Set(calls.map((c) => c.id));
    const calling = lines.filter((l) => l.record.kind === "call_start" || l.record.kind === "call_end");
    expect(calling.filter((l) => !ids.has(l.record.toolCallId as string))).toEqual([]);

    expect(callRecords(lines, "write-env").ends[0]?.record).toMatchObject({
      outcome: "blocked",
      isError: true,
      blockedBy: "protected-paths",
    });
    expect(callRecords(lines, "write-allowed").ends[0]?.record).toMatchObject({ outcome: "executed", isError: false });
    // Paths are recorded; contents only as their length.
    const content = call("write-env").arguments.content as string;
    expect(callRecords(lines, "write-env").starts[0]?.record.args).toEqual({
      path: ".env",
      content: { redacted: true, length: content.length },
    });
  });

  it("no text the model tried to write or run appears anywhere in the audit", () => {
    const secrets = calls.flatMap((c) =>
      (SECRET_FIELDS[c.name] ?? []).map((f) => c.arguments[f]).filter((v): v is string => typeof v === "string"),
    );
    expect(secrets).toContain(call("write-env").arguments.content);
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
    expect(text).not.toContain("sk-demo");
  });

  it("the audit lives in the per-user directory, not in the workspace", () => {
    expect(existsSync(join(p.dir, ".gatehouse", "audit"))).toBe(false);
    expect(auditPath(p).startsWith(p.home)).toBe(true);
    const about = JSON.parse(readFileSync(join(auditPath(p), "..", "project.json"), "utf8"));
    expect(about.project).toBe(realpathSync(p.dir));
  });

  it("audit verify says INTACT (exit 0) and audit stats counts calls per tool and outcome", async () => {
    const [verify, stats] = await Promise.all([
      runCli(["audit", "verify", "--cwd", p.dir], { env: p.env }),
      runCli(["audit", "stats", "--cwd", p.dir, "--json"], { env: p.env }),
    ]);
    expect(verify.stdout).toBe(
      `INTACT: ${lines.length} records in 1 session, 1 seal; every MAC, chain and seal verified.\nlog: ${auditPath(p)}\n`,
    );
    expect(verify.code).toBe(0);

    const expected: Record<string, { ended: number; outcomes: Record<string, number>; unfinished: number }> = {};
    for (const c of calls) {
      const t = expected[c.name] ?? { ended: 0, outcomes: {}, unfinished: 0 };
      expected[c.name] = t;
      t.ended++;
      t.outcomes[outcomeOf(c.id)] = (t.outcomes[outcomeOf(c.id)] ?? 0) + 1;
    }
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      records: lines.length,
      sessions: 1,
      badLines: 0,
      ended: calls.length,
      unfinished: 0,
      outcomes: { executed: calls.length - 3, blocked: 1, invalid: 1, failed: 1 },
      tools: expected,
    });
  });

  it("audit verify FILE with --seals names the line of a modified record (6) and of a deleted one (6)", async () => {
    const dir = tempDir("gh-tamper-");
    const target = callRecords(lines, "write-env").ends[0] as AuditLine;
    const modified = target.text.replace('"outcome":"blocked"', '"outcome":"executed"');
    expect(modified).not.toBe(target.text);
    const deleted = callRecords(lines, "write-allowed").starts[0] as AuditLine;
    const files = {
      modified: lines.map((l) => (l === target ? modified : l.text)),
      deleted: lines.filter((l) => l !== deleted).map((l) => l.text),
    };
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), `${body.join("\n")}\n`);
    const seals = sealDirOf(p.home, auditPath(p));
    const verify = (name: string) =>
      runCli(["audit", "verify", join(dir, name), "--seals", seals, "--key", join(p.home, "keys", "audit.key")], {
        env: p.env,
      });
    const [mod, del] = await Promise.all([verify("modified"), verify("deleted")]);
    expect([mod.code, del.code, mod.stderr, del.stderr]).toEqual([6, 6, "", ""]);
    expect(mod.stdout).toContain(`TAMPERED at line ${target.line}: seq ${target.record.seq} of session`);
    expect(mod.stdout).toContain("does not match its MAC: modified or forged");
    // The record after the deleted one now sits on the deleted one's line.
    expect(del.stdout).toContain(`TAMPERED at line ${deleted.line}: seq ${deleted.record.seq} of session`);
    expect(del.stdout).toContain("missing between line");
  });

  it("audit tail --lines 3 prints the last three records readably, and raw with --json", async () => {
    const [human, json] = await Promise.all([
      runCli(["audit", "tail", "--lines", "3", "--cwd", p.dir], { env: p.env }),
      runCli(["audit", "tail", "--lines", "3", "--json", "--cwd", p.dir], { env: p.env }),
    ]);
    const last = lines.slice(-3);
    expect(human.code).toBe(0);
    const shown = human.stdout.trimEnd().split("\n");
    expect(shown).toHaveLength(3);
    shown.forEach((row, i) => {
      const r = last[i]?.record as AuditLine["record"];
      expect(row).toContain(`${r.session.slice(0, 8)}#${r.seq}`);
      expect(row).toContain(r.kind);
      if (r.kind === "call_end") expect(row).toMatch(new RegExp(`${r.toolCallId} +${r.outcome}`));
      expect(row).not.toContain("{");
    });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(`${last.map((l) => l.text).join("\n")}\n`);
  });

  it("audit tail aligns its columns and shows what each call touched; audit stats counts in the right number", async () => {
    const [tail, stats] = await Promise.all([
      runCli(["audit", "tail", "--lines", "1000", "--cwd", p.dir], { env: p.env }),
      runCli(["audit", "stats", "--cwd", p.dir], { env: p.env }),
    ]);
    const rows = tail.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(lines.length);
    // The call id column starts at the same place on every row of a call record.
    const idColumns = new Set(
      lines.flatMap((l, i) => {
        const id = (l.record as { toolCallId?: string }).toolCallId;
        return id === undefined ? [] : [(rows[i] as string).search(new RegExp(`  ${id}( |$)`))];
      }),
    );
    expect([...idColumns]).toHaveLength(1);
    const envEnd = rows.find((row) => row.includes("call_end") && row.includes(" write-env "));
    expect(envEnd).toMatch(/ write-env +blocked by protected-paths +write \.env$/);
    expect(rows.find((row) => row.includes("call_start") && row.includes(" read-todo "))).toMatch(/ notes\/todo\.md$/);
    expect(rows.find((row) => row.includes("call_end") && row.includes(" run-main "))).toMatch(
      / executed +exec \(\d+ chars\)$/,
    );
    expect(stats.stdout.split("\n")[0]).toBe(
      `${auditPath(p)}: ${lines.length} records, 1 session, ${calls.length} calls ended, 0 unfinished`,
    );
    expect(stats.stdout).toMatch(/^ {2}write +4 calls +executed 2, blocked 1, invalid 1$/m);
    expect(stats.stdout).toMatch(/^ {2}edit +1 call +executed 1$/m);
  });

  it("audit tail --follow prints the records a new run appends, and exits 0 on SIGINT", async () => {
    // A fresh copy of the demo project: its log does not exist yet, so the tail waits for it and
    // then prints every record from the first (--lines covers them all, whenever the tail starts).
    const q = makeProject();
    cpSync(join(DEMO, "project"), q.dir, { recursive: true });
    const tail = startCli(["audit", "tail", "--follow", "--lines", "1000", "--json", "--cwd", q.dir], { env: q.env });
    onTestFinished(() => void tail.child.kill("SIGKILL"));

    const more = writeScript(tempDir(), [
      {
        content: [
          { type: "toolCall", id: "T-write", name: "write", arguments: { path: "playground/t.txt", content: "t" } },
          { type: "toolCall", id: "T-env", name: "write", arguments: { path: ".env.local", content: "t" } },
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const second = await runCli(["run", "--script", more, "--cwd", q.dir, "--json"], { env: q.env });
    expect(second.code).toBe(0);
    const appended = readAuditLines(auditPath(q)).lines;
    expect(appended.map((l) => l.record.kind)).toEqual([
      "session_start",
      "call_start",
      "call_start",
      "call_end",
      "call_end",
      "session_end",
    ]);

    await tail.waitFor((out) => out.trimEnd().split("\n").length === appended.length);
    tail.child.kill("SIGINT");
    const exit = await tail.exited;
    expect(exit.code).toBe(0);
    expect(exit.stdout.trimEnd().split("\n")).toEqual(appended.map((l) => l.text));
    const ends = appended
      .filter((l) => l.record.kind === "call_end")
      .map((l) => [l.record.toolCallId, l.record.outcome]);
    expect(ends.sort()).toEqual([
      ["T-env", "blocked"],
      ["T-write", "executed"],
    ]);
  });
});
