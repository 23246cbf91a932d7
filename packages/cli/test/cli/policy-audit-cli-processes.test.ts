import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { auditPath, callRecords, expectIntactChains, readAuditLines, recordsKey } from "./audit-lines.ts";
import { events, runCli, startCli, writeScript } from "./cli-helpers.ts";

// The audit under real process conditions: two runs sharing one file, a run killed mid-call, and
// an audit that cannot be written.

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const settings = (config: Record<string, unknown> = {}) =>
  JSON.stringify({ extensions: PLUGINS, config: { "tool-audit": config } });

interface ScriptTurn {
  content: { type: string; id?: string; name?: string; arguments?: Record<string, unknown>; text?: string }[];
}

const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

/**
 * Three turns of parallel calls for process `me`. The first call of each turn waits until the
 * other process has reached the same turn, so the two runs overlap turn by turn whatever their
 * start-up times, and neither can finish before the other has started.
 */
function rendezvousTurns(me: string, other: string): ScriptTurn[] {
  const turns = [1, 2, 3].map((k) => ({
    content: [
      toolCall(`${me}-${k}-meet`, "bash", {
        command: `touch sync/${me}${k}; until [ -e sync/${other}${k} ]; do sleep 0.02; done`,
        timeout: 10,
      }),
      toolCall(`${me}-${k}-sleep`, "bash", { command: "sleep 0.05" }),
      toolCall(`${me}-${k}-write`, "write", { path: `playground/${me}-${k}.txt`, content: `${me}${k}` }),
    ],
  }));
  return [...turns, { content: [{ type: "text", text: "done" }] }];
}

describe("audit under real processes", () => {
  it("two concurrent runs on one project share the audit file: whole lines, two intact chains, verify OK", async () => {
    const p = makeProject({ ".gatehouse/settings.json": settings(), "sync/.keep": "" });
    const scripts = { P: rendezvousTurns("P", "Q"), Q: rendezvousTurns("Q", "P") };
    const runs = await Promise.all(
      (["P", "Q"] as const).map((me) =>
        runCli(["run", "--cwd", p.dir, "--json", "--script", writeScript(p.dir, scripts[me], `${me}.json`)], {
          env: p.env,
        }),
      ),
    );
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, ""],
      [0, ""],
    ]);

    const { lines } = readAuditLines(auditPath(p));
    const sessions = expectIntactChains(lines, recordsKey(p.home));
    expect(sessions.size).toBe(2);
    const sessionOf = (me: string) => callRecords(lines, `${me}-1-meet`).starts[0]?.record.session ?? "";
    expect(new Set([sessionOf("P"), sessionOf("Q")]).size).toBe(2);
    for (const me of ["P", "Q"] as const) {
      const own = sessions.get(sessionOf(me)) ?? [];
      const ids = scripts[me].flatMap((t) => t.content.flatMap((c) => (c.id ? [c.id] : [])));
      expect(ids).toHaveLength(9);
      for (const id of ids) {
        const { starts, ends } = callRecords(own, id);
        expect([id, starts.length, ends.length, ends[0]?.record.outcome]).toEqual([id, 1, 1, "executed"]);
      }
      // Each call is in its own process's session only.
      expect(lines.filter((l) => ids.includes(l.record.toolCallId as string))).toHaveLength(2 * ids.length);
    }
    // The rendezvous orders the flushes in phases (both session starts, then both turn 1 batches,
    // then both turn 2, then both turn 3): the sessions alternate in the file at least once per phase.
    const switches = lines.filter((l, i) => i > 0 && l.record.session !== lines[i - 1]?.record.session).length;
    expect(switches).toBeGreaterThanOrEqual(4);

    const verify = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(verify.stdout).toContain(`INTACT: ${lines.length} records in 2 sessions, 2 seals`);
    expect(verify.code).toBe(0);
  });

  it.each(["every", "batch"] as const)(
    'SIGKILL while a call runs (fsync "%s"): verify exits 3 (unsealed tail) naming the unclosed session; the sealed part verifies',
    async (fsync) => {
      // Turn 1 (session_start, A's and B's starts and ends: seq 0–4) was written and sealed at its turn_end.
      const sealedCount = 5;
      const p = makeProject({ ".gatehouse/settings.json": settings({ fsync }), "notes.md": "n\n" });
      const script = writeScript(p.dir, [
        {
          content: [
            toolCall("A", "write", { path: "playground/a.txt", content: "a" }),
            toolCall("B", "read", { path: "notes.md" }),
          ],
        },
        { content: [toolCall("C", "bash", { command: "echo started; exec sleep 30" })] },
        { content: [toolCall("D", "write", { path: "playground/never.txt", content: "d" })] },
      ]);
      const run = startCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
      // No pid from inside the call is ever killed from here: bash runs in the sandbox's own pid
      // namespace, where `$$` is a small number that names an unrelated process (on a CI machine,
      // the CI runner itself) outside it. bwrap's --die-with-parent ends `sleep` with the host.
      onTestFinished(() => {
        run.child.kill("SIGKILL");
      });
      const update = () =>
        events(run.stdout().slice(0, run.stdout().lastIndexOf("\n") + 1)).find(
          (e) => e.type === "tool_execution_update" && JSON.stringify(e).includes("started"),
        );
      // C's progress proves its call_start was handled (the start is awaited before a tool runs)
      // and that turn 1 ended (its batch flushed at turn_end).
      await run.waitFor(() => update() !== undefined);
      run.child.kill("SIGKILL");
      expect((await run.exited).signal).toBe("SIGKILL");

      const [verify, stats] = await Promise.all([
        runCli(["audit", "verify", "--cwd", p.dir], { env: p.env }),
        runCli(["audit", "stats", "--cwd", p.dir, "--json"], { env: p.env }),
      ]);
      expect(verify.stdout).toContain("UNSEALED TAIL: every sealed record verifies, but a run did not close");
      expect(verify.stdout).toContain(`(pid ${run.child.pid}) did not close (killed or crashed, or still running)`);
      expect(verify.code).toBe(3);
      const { lines } = readAuditLines(auditPath(p));
      expectIntactChains(lines, recordsKey(p.home), { open: true });
      expect(verify.stdout).toContain(`its ${sealedCount} sealed record(s) verify`);
      // "every": each record is on disk before its handler returns, C's start included: it is the
      // unsealed tail. "batch": C's start was still in the buffer when the process was killed.
      const unsealed = fsync === "every" ? 1 : 0;
      expect(lines).toHaveLength(sealedCount + unsealed);
      if (unsealed) expect(verify.stdout).toContain(`1 record(s) after the last seal (seq 5–5, up to line 6)`);
      else expect(verify.stdout).toContain("nothing follows its last seal");
      for (const id of ["A", "B"]) expect(callRecords(lines, id).ends).toHaveLength(1);
      expect(callRecords(lines, "C").ends).toHaveLength(0);
      expect(callRecords(lines, "C").starts).toHaveLength(unsealed);
      expect(JSON.parse(stats.stdout)).toMatchObject({
        ended: 2,
        unfinished: unsealed,
        tools: { write: { outcomes: { executed: 1 } }, read: { outcomes: { executed: 1 } } },
      });
      expect(readFileSync(join(p.dir, "playground/a.txt"), "utf8")).toBe("a");
      expect(existsSync(join(p.dir, "playground/never.txt"))).toBe(false);
    },
  );

  it("an audit that cannot be written stops the run (exit 1) before any tool runs, naming the file", async () => {
    // A regular file where the project's audit folder should be: the audit log cannot be created.
    const p = makeProject({ ".gatehouse/settings.json": settings() });
    const folder = join(auditPath(p), "..");
    mkdirSync(join(folder, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(folder, "not a folder\n");
    const script = writeScript(p.dir, [
      { content: [toolCall("W", "write", { path: "playground/w.txt", content: "w" })] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`gatehouse: Stopped by extension "tool-audit": audit log ${auditPath(p)}`);
    expect(run.stderr).toContain("cannot be written");
    expect(existsSync(join(p.dir, "playground/w.txt"))).toBe(false);
    expect(events(run.stdout).filter((e) => e.type === "tool_execution_start")).toEqual([]);
    expect(readFileSync(folder, "utf8")).toBe("not a folder\n");
  });
});
