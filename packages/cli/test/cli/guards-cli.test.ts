import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { events, runCli, writeScript } from "./cli-helpers.ts";

// Guards fail closed through the real CLI: a guard a typo switched off never looks like one that is on.

/** True when the event stream shows the model was never asked (no run started), only load errors. */
const askedNothing = (stdout: string) => events(stdout).every((e) => e.type === "extension_error");
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const WRITE_ENV = [
  { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: ".env", content: "PWNED=1" } }] },
  { content: [{ type: "text", text: "done" }] },
];

describe("a typo in a guard's configuration stops the CLI", () => {
  it("gatehouse run exits 2 before the first model request, names file, line, column and level; .env is untouched", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { denyWrites: [".env"] } },
      }),
      ".env": "SECRET=1\n",
    });
    const script = writeScript(p.dir, WRITE_ENV);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(run.code).toBe(2);
    expect(askedNothing(run.stdout)).toBe(true);
    expect(run.stderr).toContain(
      `${join(p.dir, ".gatehouse/settings.json")}:7:21: config["protected-paths"].denyWrites`,
    );
    expect(run.stderr).toContain("(project settings)");
    expect(readFileSync(join(p.dir, ".env"), "utf8")).toBe("SECRET=1\n");

    const check = await runCli(
      ["policy", "check", "--cwd", p.dir, "--tool", "write", "--args", '{"path":".env","content":"x"}'],
      { env: p.env },
    );
    expect(check.code).toBe(2);
    expect(check.stdout).not.toContain("decision: allowed");
    expect(check.stderr).toContain('required guard "protected-paths"');
    expect(check.stderr).toContain("denyWrites");
  });

  it("a bad tool-audit value stops the run too: nothing runs unaudited", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/tool-audit"],
        config: { "tool-audit": { fsync: "sometimes" } },
      }),
    });
    const script = writeScript(p.dir, [{ content: [{ type: "toolCall", id: "A", name: "ls", arguments: {} }] }]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(run.code).toBe(2);
    expect(askedNothing(run.stdout)).toBe(true);
    expect(run.stderr).toMatch(/config\["tool-audit"\]\.fsync: .*"sometimes".*\(project settings\)/);
  });

  it("a project key under a managed guard stops the run, blaming the project file, not the managed one", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({ config: { "tool-audit": { onWriteError: "warn", extra: 1 } } }),
    });
    const managed = p.write("etc/managed.json", pretty({ extensions: ["@gatehouse/tool-audit"] }));
    const script = writeScript(p.dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const env = { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed };
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(p.dir, ".gatehouse/settings.json")}:`);
    expect(run.stderr).toContain('config["tool-audit"].extra');
    expect(run.stderr).not.toMatch(new RegExp(`${managed}:\\d+:\\d+: config`));
    expect(askedNothing(run.stdout)).toBe(true);
  });
});

describe("gatehouse extensions and policy check --explain", () => {
  it("extensions shows required guards, where each was enabled and the level that set each key; a failed guard is exit 2", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths", "@gatehouse/hello-tool"],
        config: { "protected-paths": { denyWrite: ["docs/**"] } },
      }),
    });
    const managed = p.write(
      "etc/managed.json",
      pretty({ extensions: ["@gatehouse/protected-paths"], config: { "protected-paths": { bash: "deny" } } }),
    );
    const env = { ...p.env, GATEHOUSE_MANAGED_SETTINGS: managed };
    const list = await runCli(["extensions", "--cwd", p.dir], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("protected-paths  loaded  required  @gatehouse/protected-paths");
    expect(list.stdout).toContain(`enabled at ${managed}:3:5 (managed settings)`);
    expect(list.stdout).toMatch(/hello-tool {2}loaded {2}@gatehouse\/hello-tool/);
    expect(list.stdout).toContain(`bash = "deny"  ← managed settings ${managed}:`);
    expect(list.stdout).toContain(
      `denyWrite = ["docs/**"]  ← project settings ${join(p.dir, ".gatehouse/settings.json")}:`,
    );
    expect(list.stdout).toContain('undeclaredEffects = "deny"  ← default');
    const json = JSON.parse((await runCli(["extensions", "--json", "--cwd", p.dir], { env })).stdout);
    expect(json[0]).toMatchObject({
      name: "protected-paths",
      required: true,
      enabledAt: { kind: "settings", level: "managed", file: managed },
    });

    p.write(".gatehouse/settings.json", pretty({ config: { "protected-paths": { bash: "allow" } } }));
    const broken = await runCli(["extensions", "--cwd", p.dir], { env });
    expect(broken.code).toBe(2);
    expect(broken.stdout).toContain("protected-paths  failed  required");
    expect(broken.stderr).toContain('"allow" is looser than the managed floor "deny"');
  });

  it("policy check --explain prints each key's effective value and the level, file and line that set it", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": pretty({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { bash: "deny", denyWrite: ["docs/**"] } },
      }),
    });
    p.writeHome("settings.json", pretty({ config: { "protected-paths": { denyRead: ["private/**"] } } }));
    const args = ["policy", "check", "--cwd", p.dir, "--tool", "write", "--args", '{"path":"docs/a.md","content":"x"}'];
    const human = await runCli([...args, "--explain"], { env: p.env });
    expect(human.code).toBe(1);
    const project = join(p.dir, ".gatehouse/settings.json");
    expect(human.stdout).toMatch(/^decision: blocked by protected-paths$/m);
    expect(human.stdout).toContain("config of protected-paths:");
    expect(human.stdout).toContain(`  bash = "deny"  ← project settings ${project}:7:15`);
    expect(human.stdout).toContain(`  denyRead = ["private/**"]  ← user settings ${join(p.home, "settings.json")}:`);
    expect(human.stdout).toContain("  workspace = (unset)  ← default");
    const json = JSON.parse((await runCli([...args, "--explain", "--json"], { env: p.env })).stdout);
    expect(json.config["protected-paths"].keys).toContainEqual({
      key: "bash",
      value: "deny",
      from: [{ level: "project", file: project, line: 7, column: 15 }],
    });
  });
});

describe("no guard, no silence", () => {
  it("a run without a path guard says so in one stderr line and in the summary; --json stdout stays events only", async () => {
    const p = makeProject();
    const script = writeScript(p.dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const plain = await runCli(["run", "--cwd", p.dir, "--script", script], { env: p.env });
    expect(plain.code).toBe(0);
    const notice = plain.stderr.split("\n").filter((line) => line.includes("no path guard"));
    expect(plain.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^done · 1 turn · no tool calls · .* · no path guard · session [0-9a-f]{8}$/,
    );
    const dir = join(p.dir, ".gatehouse");
    expect(notice).toEqual([
      `gatehouse: no path guard is loaded, so tools may read and write any file the OS allows; enable one with: mkdir -p '${dir}' && echo '{ "extensions": ["@gatehouse/protected-paths"] }' > '${dir}/settings.json'`,
    ]);
    const json = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(json.stderr).toContain("no path guard is loaded");
    expect(events(json.stdout).map((e) => e.type)).toContain("agent_end");
    // The command it prints works: run it, and the next run is guarded.
    execSync((notice[0] as string).split("enable one with: ")[1] as string, { shell: "/bin/sh" });

    const guarded = await runCli(["run", "--cwd", p.dir, "--script", script], { env: p.env });
    expect(guarded.stderr).toBe("");
    expect(guarded.stdout).not.toContain("no path guard");
  });
});
