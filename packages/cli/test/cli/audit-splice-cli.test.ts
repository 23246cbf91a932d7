import { copyFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, type TestProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { auditPath, readAuditLines, sealDirOf } from "./audit-lines.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// A session spliced in from another log, together with its seal, when both logs share a key: two
// projects of one user (every project shares the per-user key), or one project under two Gatehouse
// homes holding the same team key. Each log has its own random id, recorded in every session and
// seal, and each session vouches for the one before it (its last MAC): the splice is TAMPERED.

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const turns = (tag: string) => [
  { content: [{ type: "toolCall", id: `${tag}-1`, name: "write", arguments: { path: `${tag}.txt`, content: tag } }] },
  { content: [{ type: "text", text: "done" }] },
];

async function runIn(dir: string, env: NodeJS.ProcessEnv, tag: string): Promise<void> {
  const run = await runCli(["run", "--cwd", dir, "--script", writeScript(tempDir(), turns(tag))], { env });
  expect([run.code, run.stderr]).toEqual([0, ""]);
}

/** Replaces the first session of `log` by every line of `other`. */
function spliceFirstSession(log: string, other: string): void {
  const { lines } = readAuditLines(log);
  const first = lines[0]?.record.session;
  const rest = lines.filter((l) => l.record.session !== first).map((l) => l.text);
  const spliced = readAuditLines(other).lines.map((l) => l.text);
  writeFileSync(log, [...spliced, ...rest].map((l) => `${l}\n`).join(""));
}

async function verifyJson(dir: string, env: NodeJS.ProcessEnv) {
  const run = await runCli(["audit", "verify", "--cwd", dir, "--json"], { env });
  const report = JSON.parse(run.stdout) as { verdict: string; problems: { message: string }[] };
  return { code: run.code, verdict: report.verdict, messages: report.problems.map((p) => p.message).join("\n") };
}

describe("audit verify: a session spliced in from another log with the same key", () => {
  it("two projects of one home, logs in their workspaces: p2's session and seal in place of p1's #1 is TAMPERED (exit 6)", async () => {
    const home = tempDir("gh-home-");
    const env = { GATEHOUSE_HOME: home };
    const settings = JSON.stringify({
      extensions: PLUGINS,
      config: { "tool-audit": { file: ".gatehouse/audit.jsonl", allowWorkspaceFile: true } },
    });
    const [p1, p2] = [tempDir("gh-wp-"), tempDir("gh-wp-")].map((dir) => {
      mkdirSync(join(dir, ".gatehouse"));
      writeFileSync(join(dir, ".gatehouse", "settings.json"), settings);
      return realpathSync(dir);
    }) as [string, string];
    await runIn(p1, env, "one");
    await runIn(p1, env, "two");
    await runIn(p2, env, "other");
    const [log1, log2] = [p1, p2].map((p) => join(p, ".gatehouse", "audit.jsonl")) as [string, string];
    expect((await verifyJson(p1, env)).verdict).toBe("intact");
    spliceFirstSession(log1, log2);
    copyFileSync(join(sealDirOf(home, log2), "00000001.seal"), join(sealDirOf(home, log1), "00000001.seal"));
    const report = await verifyJson(p1, env);
    expect(report.verdict).toBe("tampered");
    expect(report.code).toBe(6);
    expect(report.messages).toMatch(/\(#1\) was written to another log \(log id/);
    expect(report.messages).toMatch(/is not the session #1 that was there when session #2 started/);
  });

  it("one project under two homes with one team key: home B's session #1 and its seal spliced into home A is TAMPERED", async () => {
    const a: TestProject = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    await runIn(a.dir, a.env, "one");
    await runIn(a.dir, a.env, "two");
    const homeB = tempDir("gh-home-b-");
    mkdirSync(join(homeB, "keys"), { recursive: true, mode: 0o700 });
    copyFileSync(join(a.home, "keys", "audit.key"), join(homeB, "keys", "audit.key"));
    await runIn(a.dir, { GATEHOUSE_HOME: homeB }, "other");
    const logA = auditPath(a);
    const logB = auditPath({ dir: a.dir, home: homeB });
    spliceFirstSession(logA, logB);
    copyFileSync(join(sealDirOf(homeB, logB), "00000001.seal"), join(sealDirOf(a.home, logA), "00000001.seal"));
    const report = await verifyJson(a.dir, a.env);
    expect(report.verdict).toBe("tampered");
    expect(report.code).toBe(6);
    expect(report.messages).toMatch(/was written to another log \(log id/);
  });

  it("a project's own log replaced, seals and log id included, by another project's: every session ran elsewhere (TAMPERED)", async () => {
    const p1 = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    const p2dir = tempDir("gh-proj-");
    mkdirSync(join(p2dir, ".gatehouse"));
    writeFileSync(join(p2dir, ".gatehouse", "settings.json"), JSON.stringify({ extensions: PLUGINS }));
    await runIn(p1.dir, p1.env, "one");
    await runIn(p2dir, p1.env, "other");
    const log1 = auditPath(p1);
    const log2 = auditPath({ dir: p2dir, home: p1.home });
    copyFileSync(log2, log1);
    for (const name of ["00000001.seal", "log.id"]) {
      copyFileSync(join(sealDirOf(p1.home, log2), name), join(sealDirOf(p1.home, log1), name));
    }
    const report = await verifyJson(p1.dir, p1.env);
    expect(report.verdict).not.toBe("intact");
    expect(report.messages).toMatch(/ran in .*, not in this project/);
  });
});
