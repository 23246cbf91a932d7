import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy, type Policy } from "../src/index.ts";
import { createFixture, exec, type Fixture, reasonOf } from "./helpers/fixture.ts";

/** The policy an agent hook decides with: commands will run without the sandbox. */
function unconfined(f: Fixture): Policy {
  return createPolicy(
    { denyRead: ["secrets/**"] },
    { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh"), unconfinedBash: "unconfined" },
  );
}

/** Runs `command` in bash with one shell option on, as an agent's shell that carries the user's would. */
function bashWith(f: Fixture, option: string, command: string): string {
  // No terminal and no input, as an agent runs it (rg searches its input when that is a pipe).
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  return execFileSync("bash", ["-O", option, "-c", command], { cwd: f.ws, encoding: "utf8", stdio });
}

/**
 * Claude Code's Bash sources a snapshot of the user's shell, options included (`shopt`), so the
 * agent's commands may run with nocaseglob, nullglob, globstar or cdable_vars on. The strict analysis matched
 * globs as default bash does: each command below was allowed and printed a denied file (.env, or
 * what `denyRead: ["secrets/**"]` names) where the option is on.
 */
describe.skipIf(process.platform === "win32")("strict hooks: glob options of the agent's shell", () => {
  it.each([
    ["nocaseglob", "cat .EN?"],
    ["nullglob", "grep -r SECRET none*"],
    ["nullglob", "rg SECRET none*"],
    ["nullglob", "find none* -name .env -exec cat {} +"],
    ["globstar", "cat apps/**"],
  ])("with %s, %j reads a denied file and is refused", (option, command) => {
    const f = createFixture();
    f.file(".env", "SECRET=leaked\n");
    f.file("apps/web/.env", "SECRET=leaked\n");
    f.file("apps/private/secrets/key", "SECRET=leaked\n");
    let output = "";
    try {
      output = bashWith(f, option, command);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? "");
    }
    expect(output).toContain("SECRET=leaked");
    expect(unconfined(f).check(exec(command)).allow).toBe(false);
  });

  it("with cdable_vars, cd to a name that is no folder follows the variable: cd HOME && cat .ssh/id_rsa", () => {
    const f = createFixture();
    f.file(path.join(f.home, ".ssh/id_rsa"), "KEY=leaked\n");
    const command = "cd HOME && cat .ssh/id_rsa";
    const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
    const env = { ...process.env, HOME: f.home };
    const output = execFileSync("bash", ["-O", "cdable_vars", "-c", command], {
      cwd: f.ws,
      encoding: "utf8",
      stdio,
      env,
    });
    expect(output).toContain("KEY=leaked");
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec(command)))).toMatch(/a cd chose at run time/);
    f.dir("build");
    for (const allowed of ["cd src && cat app.ts", "cd build && ls -la", "cd ./HOME && ls x"]) {
      const decision = policy.check(exec(allowed));
      expect(decision.allow ? "allowed" : decision.reason, allowed).toBe("allowed");
    }
  });

  it("says why: the option may be on in the agent's shell", () => {
    const f = createFixture();
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("grep -r x none*")))).toMatch(/matches nothing.*nullglob/);
    expect(reasonOf(policy.check(exec("cat src/**")))).toMatch(/globstar/);
    expect(policy.check(exec("cat .ENV")).allow).toBe(true);
  });

  it("lets globs run that match, or whose vanishing changes nothing", () => {
    const f = createFixture();
    f.file("notes.md");
    const policy = unconfined(f);
    for (const command of ["cat src/*.ts", "rg x src/*.ts", "cat -- none*", "grep x none* notes.md", "ls *.md"]) {
      const decision = policy.check(exec(command));
      expect(decision.allow ? "allowed" : decision.reason, command).toBe("allowed");
    }
  });
});

/** Whether a shell is installed here (the premise checks run it). */
function installed(shell: string): boolean {
  try {
    execFileSync(shell, ["-c", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Runs `command` in `shell` in the fixture, returning what it printed (also when it failed). */
function run(f: Fixture, shell: string, command: string): string {
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  try {
    return execFileSync(shell, ["-c", command], { cwd: f.ws, encoding: "utf8", stdio });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? "");
  }
}

/**
 * Claude Code runs its Bash tool in the user's shell, zsh on macOS and on many Linux machines, and
 * the strict analysis read every line by bash's grammar: these were allowed and zsh read .env,
 * wrote the hook or ran a substitution.
 */
describe.skipIf(!installed("zsh") && process.env.CI !== "true")(
  "strict hooks: what zsh reads otherwise than bash",
  () => {
    const HOOK = ".git/hooks/pre-commit";
    it.each([
      [`echo x >! ${HOOK}`, "write"],
      [`echo x >>! ${HOOK}`, "write"],
      ["cat .(env|echo)", "read"],
      ["cat (.e)nv", "read"],
      [`x='$(printf x > ${HOOK})'; echo \${(e)x}`, "write"],
      ["x=.env; cat $=x", "read"],
      // zsh's `cd OLD NEW` replaces OLD in $PWD: from proj, with a folder proj/proj, it enters proj/.git/hooks.
      [`cd proj proj/.git/hooks && echo x > pre-commit`, "write"],
      ["x='.e*'; cat $~x", "read"],
    ])("%j (a %s zsh does) is refused", (command, effect) => {
      const f = createFixture();
      f.file(".env", "SECRET=leaked\n");
      f.dir(".git/hooks");
      f.dir("proj");
      const output = run(f, "zsh", command);
      if (effect === "read") expect(output).toContain("SECRET=leaked");
      else expect(existsSync(path.join(f.ws, HOOK))).toBe(true);
      expect(unconfined(f).check(exec(command)).allow).toBe(false);
    });

    it("refuses =NAME (a command's path to zsh) and zsh's arrays tied to PATH", () => {
      const f = createFixture();
      const policy = unconfined(f);
      expect(policy.check(exec("tee =git < notes.md")).allow).toBe(false);
      expect(policy.check(exec("path=(.) ; git status")).allow).toBe(false);
      for (const command of ["f() { :; }", "if (true); then echo; fi", "echo a && (cat src/app.ts)", "[ a = b ]"]) {
        const decision = policy.check(exec(command));
        expect(decision.allow ? "" : decision.reason, command).not.toMatch(/zsh/);
      }
    });
  },
);

/**
 * With zsh's EXTENDED_GLOB option (off by default, set by many users' configurations, which Claude
 * Code carries over), `^`, `~` and `#` are pattern characters: each of these printed .env while the
 * analysis took the word for a file of that name.
 */
describe.skipIf(!installed("zsh") && process.env.CI !== "true")("strict hooks: zsh's EXTENDED_GLOB", () => {
  it.each(["cat .^x", "cat .envv#", "cat .e*~x", "cat ^src", "head -n 1 ./.e^x"])(
    "%j reads .env under the option and is refused",
    (command) => {
      const f = createFixture();
      f.file(".env", "SECRET=leaked\n");
      const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
      let output = "";
      try {
        output = execFileSync("zsh", ["-o", "extendedglob", "-o", "globdots", "-c", command], {
          cwd: f.ws,
          encoding: "utf8",
          stdio,
        });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? "");
      }
      expect(output).toContain("SECRET=leaked");
      expect(unconfined(f).check(exec(command)).allow).toBe(false);
    },
  );

  it("a pattern operand, a revision and a word that cannot reach a protected file still run; a folder pattern is refused", () => {
    const f = createFixture();
    f.file("src/a^b.ts");
    const policy = unconfined(f);
    for (const command of ["grep ^foo src/app.ts", "grep -n '^x' docs/env.md", "cat src/a^b.ts", "cat src/app.ts~"]) {
      const decision = policy.check(exec(command));
      expect(decision.allow ? "" : decision.reason, command).toBe("");
    }
    expect(reasonOf(policy.check(exec("cat s^x/app.ts")))).toMatch(/EXTENDED_GLOB/);
  });
});

describe("strict hooks: array assignments", () => {
  it("refuses them: bash evaluates an indexed array's subscripts as arithmetic, running what a variable holds", () => {
    const f = createFixture();
    const command = "x='b[$(printf x > ran.txt)]'; a=([x]=1)";
    run(f, "bash", command);
    expect(existsSync(path.join(f.ws, "ran.txt"))).toBe(true);
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(/assigns an array/);
  });
});
