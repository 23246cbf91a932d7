import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";

type Group = { matcher?: string; hooks: { type: "command"; command: string }[] };

const deny = (matcher: string): Group => ({ matcher, hooks: [{ type: "command", command: "echo no >&2; exit 2" }] });

function project(options: { project?: Group[]; user?: Group[] }): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = tempDir("gh-stray-matchers-");
  const home = tempDir("gh-stray-matchers-home-");
  mkdirSync(join(cwd, ".gatehouse"));
  const settings = (groups: Group[] | undefined) => JSON.stringify(groups ? { hooks: { PreToolUse: groups } } : {});
  writeFileSync(join(cwd, ".gatehouse", "settings.json"), settings(options.project));
  writeFileSync(join(home, "settings.json"), settings(options.user));
  return { cwd, env: { ...process.env, GATEHOUSE_HOME: home } };
}

function run(p: { cwd: string; env: NodeJS.ProcessEnv }) {
  return runScenario({
    cwd: p.cwd,
    env: p.env,
    discover: true,
    trust: true,
    turns: [{ content: [call("A", "bash", { command: "echo ran" })] }, say("done")],
  });
}

// Before: "Bsh" and "Write|Edti" loaded silently, their hooks never ran, and the bash call the
// validator was meant to refuse ran (exit 0) — a guard switched off by a typo.
describe("a command-hook matcher that selects no tool", () => {
  it("in the project's settings stops the run, naming the file, line, field and the name it was meant as", async () => {
    const p = project({ project: [deny("Bash"), deny("Bsh"), deny("Write|Edti"), deny("mcp__.*")] });
    const error = await run(p).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe("GH_SETTINGS_INVALID");
    const file = join(p.cwd, ".gatehouse", "settings.json");
    expect(error?.message).toContain(`${file}:1:`);
    expect(error?.message).toMatch(
      /hooks\.PreToolUse\[1\]\.matcher "Bsh": "Bsh" \(did you mean "Bash"\?\) names no tool/,
    );
    expect(error?.message).toMatch(
      /hooks\.PreToolUse\[2\]\.matcher "Write\|Edti": "Edti" \(did you mean "Edit"\?\) names no tool/,
    );
    expect(error?.message).toMatch(/hooks\.PreToolUse\[3\]\.matcher "mcp__\.\*" selects no tool/);
    expect(error?.message).not.toContain("PreToolUse[0]");
  });

  it("in user settings (which serve every project) only a near miss of a tool's name counts", async () => {
    const typo = await run(project({ user: [deny("Bsh")] })).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(typo?.message).toMatch(/hooks\.PreToolUse\[0\]\.matcher "Bsh": "Bsh" \(did you mean "Bash"\?\)/);
    // A hook for a tool only some projects have, and one for every tool by either name, run as before.
    const p = project({ user: [deny("deploy_site"), deny("mcp__.*"), deny("ls|LS|Glob")] });
    const { ends } = await runScenario({
      cwd: p.cwd,
      env: p.env,
      discover: true,
      trust: true,
      turns: [{ content: [call("A", "ls", {})] }, say("done")],
    }).then((s) => ({ ends: s.events.filter((e) => e.type === "tool_execution_end") }));
    expect(ends).toMatchObject([{ outcome: "blocked", blockedBy: "hooks" }]);
  });
});
