import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CA_CERTS_PREFIX } from "../../src/hook/ca-certs.ts";
import { runCli } from "./cli-helpers.ts";

/** The command as installed on this (POSIX) machine: Node starts without NODE_EXTRA_CA_CERTS. */
const installed = (command: string) => `${CA_CERTS_PREFIX} ${command}`;

const EXISTING = {
  permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "python3 .claude/hooks/validate.py" }] }],
    PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write" }] }],
    Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
  },
};

function install(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(["hook", "install", ...args, "--cwd", dir], {
    env: { GATEHOUSE_HOME: tempDir("gh-install-home-"), ...env },
  });
}

describe("gatehouse hook install", () => {
  it("adds Gatehouse's hooks to an existing .claude/settings.json, keeping everything else, and says what changed", async () => {
    const dir = tempDir("gh-install-");
    mkdirSync(join(dir, ".claude"));
    const file = join(dir, ".claude", "settings.json");
    writeFileSync(file, JSON.stringify(EXISTING, null, 2));
    const run = await install(dir, ["claude-code"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`installed in ${file}`);
    expect(run.stdout).toContain(`+ PreToolUse: ${installed("gatehouse hook claude-code || exit 2")}`);
    expect(run.stdout).toMatch(/\+ PostToolUseFailure: /);
    expect(run.stdout).toMatch(/no \.gatehouse\/settings\.json.*gatehouse init/s);
    const settings = JSON.parse(readFileSync(file, "utf8"));
    expect(settings.permissions).toEqual(EXISTING.permissions);
    expect(settings.hooks.Stop).toEqual(EXISTING.hooks.Stop);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(settings.hooks.PreToolUse[0]).toEqual({
      hooks: [{ type: "command", command: installed("gatehouse hook claude-code || exit 2"), timeout: 30 }],
    });
    expect(settings.hooks.PreToolUse[1]).toEqual(EXISTING.hooks.PreToolUse[0]);
    expect(settings.hooks.PostToolUseFailure).toHaveLength(1);

    const again = await install(dir, ["claude-code"]);
    expect(again.stdout).toMatch(/nothing to change/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(settings);

    const moved = await install(dir, ["claude-code", "--command", "/opt/gh/bin/gatehouse"]);
    expect(moved.stdout).toContain(`~ PreToolUse: ${installed("/opt/gh/bin/gatehouse hook claude-code")}`);
    const updated = JSON.parse(readFileSync(file, "utf8"));
    expect(updated.hooks.PreToolUse).toHaveLength(2);
    expect(updated.hooks.PreToolUse[0].hooks[0].command).toBe(
      installed("/opt/gh/bin/gatehouse hook claude-code || exit 2"),
    );

    const removed = await install(dir, ["claude-code", "--uninstall"]);
    expect(removed.stdout).toMatch(/- PreToolUse: /);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(EXISTING);
  });

  it("writes .codex/hooks.json (no PostToolUseFailure: Codex has none) and explains Codex's /hooks review", async () => {
    const dir = tempDir("gh-install-codex-");
    const run = await install(dir, ["codex"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\/hooks/);
    const settings = JSON.parse(readFileSync(join(dir, ".codex", "hooks.json"), "utf8"));
    expect(Object.keys(settings.hooks)).toEqual(["PreToolUse", "PostToolUse"]);
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(installed("gatehouse hook codex || exit 2"));
    await install(dir, ["codex", "--uninstall"]);
    expect(JSON.parse(readFileSync(join(dir, ".codex", "hooks.json"), "utf8"))).toEqual({});
  });

  it("installs for the user in CODEX_HOME / CLAUDE_CONFIG_DIR with --user", async () => {
    const dir = tempDir("gh-install-user-");
    const codexHome = tempDir("gh-codex-home-");
    await install(dir, ["codex", "--user"], { CODEX_HOME: codexHome });
    expect(readFileSync(join(codexHome, "hooks.json"), "utf8")).toContain("gatehouse hook codex");
    const claudeHome = tempDir("gh-claude-home-");
    await install(dir, ["claude-code", "--user"], { CLAUDE_CONFIG_DIR: claudeHome });
    expect(readFileSync(join(claudeHome, "settings.json"), "utf8")).toContain("gatehouse hook claude-code");
  });

  it("leaves a settings file it cannot read untouched and says why", async () => {
    const dir = tempDir("gh-install-bad-");
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), "{ // comments are not JSON\n}");
    const run = await install(dir, ["claude-code"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/settings\.json: not valid JSON.*nothing was changed/);
    expect(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).toBe("{ // comments are not JSON\n}");
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: {} } }));
    expect((await install(dir, ["claude-code"])).stderr).toMatch(/hooks\.PreToolUse is not a list/);
  });

  it("refuses at once, naming the file, a settings file that is a FIFO, a folder, under a file or not UTF-8", async () => {
    const cases: [string, (dir: string) => void, RegExp][] = [
      ["fifo", (d) => execFileSync("mkfifo", [join(d, ".claude", "settings.json")]), /not a regular file.*ENOTREG/],
      ["folder", (d) => mkdirSync(join(d, ".claude", "settings.json")), /is a directory \(EISDIR\)/],
      [
        "not UTF-8",
        (d) => writeFileSync(join(d, ".claude", "settings.json"), Buffer.from('{"a":"\xff"}', "latin1")),
        /is not valid UTF-8/,
      ],
    ];
    for (const [what, make, reason] of cases) {
      const dir = tempDir("gh-install-odd-");
      mkdirSync(join(dir, ".claude"));
      make(dir);
      const run = await install(dir, ["claude-code"]);
      expect([what, run.code, run.stdout]).toEqual([what, 2, ""]);
      expect(run.stderr).toMatch(new RegExp(`^gatehouse: .*${join(dir, ".claude", "settings.json")}`));
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    const dir = tempDir("gh-install-odd-");
    writeFileSync(join(dir, ".claude"), "");
    const run = await install(dir, ["claude-code"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^gatehouse: cannot read .*\.claude\/settings\.json: a folder on its path is a file/);
    const bytes = Buffer.from('{"a":"\xff"}', "latin1");
    const odd = tempDir("gh-install-odd-");
    mkdirSync(join(odd, ".claude"));
    writeFileSync(join(odd, ".claude", "settings.json"), bytes);
    await install(odd, ["claude-code"]);
    expect(readFileSync(join(odd, ".claude", "settings.json"))).toEqual(bytes);
  });

  it("writes through a linked settings file to its target and keeps the link", async () => {
    const dir = tempDir("gh-install-link-");
    mkdirSync(join(dir, ".claude"));
    mkdirSync(join(dir, "shared"));
    writeFileSync(join(dir, "shared", "claude.json"), JSON.stringify(EXISTING));
    symlinkSync(join("..", "shared", "claude.json"), join(dir, ".claude", "settings.json"));
    expect((await install(dir, ["claude-code"])).code).toBe(0);
    expect(lstatSync(join(dir, ".claude", "settings.json")).isSymbolicLink()).toBe(true);
    const settings = JSON.parse(readFileSync(join(dir, "shared", "claude.json"), "utf8"));
    expect(settings.permissions).toEqual(EXISTING.permissions);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
  });

  it("refuses a settings file with a key twice in one object, with file:line, leaving it untouched", async () => {
    const dir = tempDir("gh-install-dup-");
    mkdirSync(join(dir, ".claude"));
    const text = '{\n  "hooks": {},\n  "env": { "A": "1", "B": "\\"}", "A": "2" }\n}\n';
    writeFileSync(join(dir, ".claude", "settings.json"), text);
    const run = await install(dir, ["claude-code"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/settings\.json:3: key "A" appears twice/);
    expect(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).toBe(text);
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      '{ "a": { "x": 1 }, "b": { "x": 1 }, "c": [{ "x": 1 }, { "x": 2 }] }',
    );
    expect((await install(dir, ["claude-code"])).code).toBe(0);
  });

  it("refuses bad usage", async () => {
    const dir = tempDir("gh-install-usage-");
    expect((await install(dir, ["cursor"])).code).toBe(2);
    expect((await install(dir, ["codex", "--project", "--user"])).stderr).toMatch(/exclude each other/);
  });
});
