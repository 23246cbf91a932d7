import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/main.ts";
import { CLI, runCli } from "./cli-helpers.ts";

const DIST = join(dirname(CLI), "..", "dist");
const VERSION = (JSON.parse(readFileSync(join(dirname(CLI), "..", "package.json"), "utf8")) as { version: string })
  .version;

/** Every `gatehouse ...` a user can ask --help of: commands, groups and subcommands. */
const TOPICS: string[][] = Object.entries(COMMANDS).flatMap(([name, { spec }]) => [
  [name],
  ...Object.keys(spec.subcommands ?? {}).map((sub) => [name, sub]),
]);

/** The files `gatehouse --help` loads: dist/main.js and what it imports statically, transitively. */
function staticGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(DIST, file), "utf8");
  for (const m of text.matchAll(/^import\s[^;]*?from\s+"([^"]+)";?$|^import\s+"([^"]+)";?$/gm)) {
    const spec = (m[1] ?? m[2]) as string;
    if (spec.startsWith("./")) staticGraph(spec.slice(2), seen);
    else seen.add(spec);
  }
  return seen;
}

describe("help, version and typos through the built CLI", () => {
  it.each(TOPICS.map((t) => [t.join(" "), t] as const))(
    "gatehouse %s --help prints its usage, options and an example (exit 0)",
    async (_name, topic) => {
      const run = await runCli([...topic, "--help"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(new RegExp(`^gatehouse ${topic.join(" ")} — `));
      expect(run.stdout).toContain("Usage:");
      expect(run.stdout).toMatch(/Examples?:\n {2}gatehouse /);
      expect(run.stdout).toContain("-h, --help");
      const short = await runCli([...topic, "-h"]);
      expect(short.stdout).toBe(run.stdout);
    },
  );

  it("gatehouse help COMMAND is the command's help; gatehouse --help lists every command", async () => {
    const [viaHelp, viaFlag, main, helpOfHelp] = await Promise.all([
      runCli(["help", "run"]),
      runCli(["run", "--help"]),
      runCli(["--help"]),
      runCli(["help", "--help"]),
    ]);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(main.code).toBe(0);
    // `help` answers --help like every command (SPEC §8), instead of "unknown option --help" (exit 2).
    expect([helpOfHelp.code, helpOfHelp.stdout, helpOfHelp.stderr]).toEqual([0, main.stdout, ""]);
    for (const [name, { spec }] of Object.entries(COMMANDS)) {
      for (const s of spec.subcommands ? Object.values(spec.subcommands) : [spec])
        expect(main.stdout).toContain(s.name);
      expect(main.stdout).toContain(name);
    }
  });

  it("gatehouse --version, -v and version print the version", async () => {
    const runs = await Promise.all([["--version"], ["-v"], ["version"]].map((args) => runCli(args)));
    for (const run of runs) expect([run.code, run.stdout]).toEqual([0, `${VERSION}\n`]);
  });

  it("an unknown flag names the closest valid one and the usage (exit 2), for a command and a subcommand", async () => {
    const [tools, tail, verb] = await Promise.all([
      runCli(["tools", "--jsno"]),
      runCli(["audit", "tail", "--line", "3"]),
      runCli(["audit", "veryfy"]),
    ]);
    expect(tools.code).toBe(2);
    expect(tools.stderr).toContain('gatehouse: unknown option --jsno for "gatehouse tools"; did you mean --json?');
    expect(tools.stderr).toContain("usage: gatehouse tools [--cwd DIR] [--json] [--trust]");
    expect(tail.stderr).toContain("did you mean --lines?");
    expect(verb.code).toBe(2);
    expect(verb.stderr).toContain('unknown command "audit veryfy"; did you mean "audit verify"?');
  });

  it('an empty --cwd is refused before anything is done: gatehouse trust --cwd "$UNSET" never trusts the current directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), "gh-empty-cwd-"));
    const home = join(dir, "home");
    mkdirSync(join(dir, ".gatehouse", "extensions"), { recursive: true });
    writeFileSync(join(dir, ".gatehouse", "extensions", "x.mjs"), "export default { name: 'x', setup() {} };\n");
    const [trust, install] = await Promise.all([
      runCli(["trust", "--cwd", ""], { cwd: dir, env: { GATEHOUSE_HOME: home } }),
      runCli(["hook", "install", "claude-code", "--project", "--cwd", dir, "--command", ""], {
        env: { GATEHOUSE_HOME: home },
      }),
    ]);
    expect([trust.code, trust.stderr.split("\n")[0]]).toEqual([
      2,
      "gatehouse: --cwd is empty: --cwd DIR needs a value",
    ]);
    expect(existsSync(join(home, "trust.json"))).toBe(false);
    expect([install.code, install.stderr.split("\n")[0]]).toEqual([
      2,
      "gatehouse: --command is empty: --command CMD needs a value",
    ]);
    expect(existsSync(join(dir, ".claude"))).toBe(false);
  });

  it("gatehouse --help loads no host, plugin or provider code: only its own small modules and node:*", () => {
    const graph = [...staticGraph("main.js")];
    expect(graph.filter((f) => !f.startsWith("node:") && !f.endsWith(".js"))).toEqual([]);
    const code = graph.filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(DIST, f), "utf8"));
    expect(code.join("\n")).not.toMatch(/from\s+"@gatehouse\/|from\s+"pino"/);
    expect(graph.length).toBeLessThanOrEqual(8);
  });
});
