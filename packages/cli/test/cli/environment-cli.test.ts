import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CLI_ARGV, collect, runCli, writeScript } from "./cli-helpers.ts";

// What the Gatehouse home and the user's settings hold is taken as the user's own: user extensions
// run without trust. A home others could write to was tightened to 0700 and then used, so an
// extension another user had dropped into it ran as the user; a settings file that is a link
// leading nowhere was read as absent, so the guards it enabled were off and the run exited 0.

const write = { type: "toolCall", id: "W", name: "write", arguments: { path: "marker.txt", content: "m" } };
const turns = [{ content: [write] }, { content: [{ type: "text", text: "done" }] }];

describe("the Gatehouse home and the user's settings", () => {
  it("refuses a home others can write to (exit 2) without running what it holds or changing its mode", async () => {
    const planted = join(tempDir(), "planted-ran");
    const p = makeProject(
      { ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/protected-paths"] }) },
      {
        "settings.json": JSON.stringify({ extensions: ["./extensions/x.mjs"] }),
        "extensions/x.mjs": `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(planted)}, "ran");\nexport default () => {};\n`,
      },
    );
    chmodSync(p.home, 0o1777);
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns), "--no-session"], {
      env: p.env,
    });
    expect(run.stderr).toBe(
      `gatehouse: Gatehouse state directory ${p.home} is writable by other users (mode 777): what it holds may not be yours; check its contents, then run chmod 700 on it; Gatehouse keeps trust, caches, audit logs and keys there and refuses to use it\n`,
    );
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(existsSync(planted)).toBe(false);
    expect(existsSync(join(p.dir, "marker.txt"))).toBe(false);
    expect(statSync(p.home).mode & 0o7777).toBe(0o1777);
  });

  it("refuses user settings that are a link leading nowhere (exit 2, naming it) instead of running without them", async () => {
    const p = makeProject();
    const target = join(p.home, "dotfiles", "gatehouse.json");
    symlinkSync(target, join(p.home, "settings.json"));
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns), "--no-session"], {
      env: p.env,
    });
    const file = join(p.home, "settings.json");
    expect(run.stderr).toContain(
      `Cannot read settings ${file}: ${file} is a symbolic link to ${JSON.stringify(target)}, which does not exist`,
    );
    expect(run.code).toBe(2);
    expect(existsSync(join(p.dir, "marker.txt"))).toBe(false);
  });
});

// Finding: GATEHOUSE_LOG_LEVEL=bogus (or set but empty) crashed every command with pino's stack
// trace ("unexpected failure: Error: default level:bogus must be included in custom levels", exit 1).
describe("GATEHOUSE_LOG_LEVEL", () => {
  it("a level pino does not know is bad input naming the variable (exit 2), not a stack trace", async () => {
    const p = makeProject();
    for (const command of [["run", "--script", writeScript(tempDir(), turns), "--no-session"], ["tools"]]) {
      const run = await runCli([...command, "--cwd", p.dir], { env: { ...p.env, GATEHOUSE_LOG_LEVEL: "bogus" } });
      expect(run.stderr).toBe(
        'gatehouse: GATEHOUSE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "bogus"\n',
      );
      expect([run.code, run.stdout]).toEqual([2, ""]);
    }
    expect(existsSync(join(p.dir, "marker.txt"))).toBe(false);
  });

  it("an empty one counts as unset, and case does not matter", async () => {
    for (const level of ["", "WARN"]) {
      const p = makeProject();
      const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns), "--no-session"], {
        env: { ...p.env, GATEHOUSE_LOG_LEVEL: level },
      });
      expect(run.code).toBe(0);
      expect(existsSync(join(p.dir, "marker.txt"))).toBe(true);
    }
  });
});

// Finding: with HOME unset and a user the password database does not know (a container started
// with `-u 12345`), every command crashed with os.homedir()'s SystemError and a stack trace (exit 1).
/** Whether `uid` could start the CLI: every folder above it lets others search it. */
function reachableBy(uid: number): boolean {
  return spawnSync(process.execPath, [...CLI_ARGV, "--version"], { uid, gid: uid }).status === 0;
}

describe("no home directory at all", () => {
  // Needs root (to become a user with no passwd entry) and a checkout that user can reach: outside
  // CI an unreachable checkout skips it; CI makes it reachable (.ci/run) and never skips it.
  it.runIf(process.getuid?.() === 0 && (reachableBy(54321) || Boolean(process.env.CI)))(
    "is bad input saying to set GATEHOUSE_HOME (exit 2), not a stack trace",
    async () => {
      const { HOME: _home, GATEHOUSE_HOME: _gh, ...env } = process.env;
      for (const command of [["tools"], ["audit", "verify"]]) {
        const child = spawn(process.execPath, [...CLI_ARGV, ...command], {
          cwd: "/",
          env: { ...env, NO_COLOR: "1" },
          uid: 54321,
          gid: 54321,
          stdio: ["pipe", "pipe", "pipe"],
        });
        const run = await collect(child, "");
        expect(run.stderr).toMatch(
          /^gatehouse: Gatehouse cannot find its state directory: HOME is not set and user 54321 has no home directory .*; set GATEHOUSE_HOME \(or HOME\) to a directory of your own\n$/,
        );
        expect([run.code, run.stdout]).toEqual([2, ""]);
      }
    },
  );
});
