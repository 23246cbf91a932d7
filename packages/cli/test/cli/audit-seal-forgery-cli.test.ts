import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, type TestProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { auditPath, readAuditLines, sealDirOf } from "./audit-lines.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// The seal folder is writable by anyone who can write the Gatehouse home, with or without the key.
// A seal line with a made-up MAC must steer nothing: not the next session's `settled`, not the
// count of records that tail and stats say a deleted log had.

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const turns = (tag: string) => [
  { content: [{ type: "toolCall", id: `${tag}-1`, name: "write", arguments: { path: `${tag}.txt`, content: tag } }] },
  { content: [{ type: "text", text: "done" }] },
];

async function runIn(p: TestProject, tag: string): Promise<void> {
  const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns(tag))], { env: p.env });
  expect([run.code, run.stderr]).toEqual([0, ""]);
}

/** Appends a seal line with a made-up MAC (derived from the newest real one) to every seal file. */
function forgeSeals(sealDir: string, change: Record<string, unknown>): void {
  for (const name of readdirSync(sealDir).filter((n) => n.endsWith(".seal"))) {
    const file = join(sealDir, name);
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const newest = lines.sort((a, b) => Number(b.gen) - Number(a.gen))[0] ?? {};
    const { mac: _mac, ...fields } = { ...newest, ...change };
    appendFileSync(file, `${JSON.stringify(fields).slice(0, -1)},"mac":"${"c".repeat(64)}"}\n`);
  }
}

describe("audit seals forged without the key", () => {
  it("a forged 'still running' line on #1's seal does not lower #2's settled: moving #2 before #1 is REORDERED, and the forgery is named", async () => {
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    await runIn(p, "one");
    const log = auditPath(p);
    const sealDir = sealDirOf(p.home, log);
    forgeSeals(sealDir, { gen: 999, closed: false, pid: 1, host: hostname() });
    await runIn(p, "two");
    const { lines } = readAuditLines(log);
    const second = lines.find((l) => l.record.kind === "session_start" && l.record.ordinal === 2);
    expect(second?.record.settled).toBe(1);

    const verify = await runCli(["audit", "verify", "--cwd", p.dir, "--json"], { env: p.env });
    const report = JSON.parse(verify.stdout) as { verdict: string; problems: { message: string }[] };
    expect(report.verdict).toBe("tampered");
    expect(report.problems.map((x) => x.message).join("\n")).toMatch(/00000001\.seal:3 does not verify with the key/);
    expect(verify.code).toBe(6);

    // #2's lines moved before #1's: #2 had seen #1 finished, so this is out of order.
    const firstOf2 = lines.indexOf(second as (typeof lines)[number]);
    const moved = [...lines.slice(firstOf2), ...lines.slice(0, firstOf2)].map((l) => `${l.text}\n`).join("");
    writeFileSync(log, moved);
    const reordered = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(reordered.stdout).toMatch(/REORDERED/);
    expect(reordered.code).toBe(10);
  });

  it("forged 'count 0' lines on every seal and the log deleted: verify, tail and stats still say it was deleted (exit 9)", async () => {
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    await runIn(p, "one");
    await runIn(p, "two");
    const log = auditPath(p);
    forgeSeals(sealDirOf(p.home, log), { gen: 999, count: 0, closed: true });
    rmSync(log);
    const runs = await Promise.all(
      (["verify", "tail", "stats"] as const).map((cmd) => runCli(["audit", cmd, "--cwd", p.dir], { env: p.env })),
    );
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      expect(run.code).toBe(9);
      expect(run.stderr).toMatch(/its seals vouch for \d+ records: it was deleted/);
    }
    // Without the key, the largest count of each seal is what counts: still deleted, not "no log yet".
    rmSync(join(p.home, "keys", "audit.key"));
    const keyless = await runCli(["audit", "tail", "--cwd", p.dir], { env: p.env });
    expect(keyless.code).toBe(9);
  });

  it("the log deleted and every seal garbled (none verifies): verify says TAMPERED (exit 6), never 'no audit records yet'", async () => {
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    await runIn(p, "one");
    const log = auditPath(p);
    const sealDir = sealDirOf(p.home, log);
    for (const name of readdirSync(sealDir).filter((n) => n.endsWith(".seal"))) {
      writeFileSync(join(sealDir, name), "garbled\n");
    }
    rmSync(log);
    const run = await runCli(["audit", "verify", "--cwd", p.dir], { env: p.env });
    expect(run.code).toBe(6);
    expect(run.stdout).toMatch(/^TAMPERED: seal .*00000001\.seal is not a seal/);
    expect(run.stderr).toBe("");
  });
});
