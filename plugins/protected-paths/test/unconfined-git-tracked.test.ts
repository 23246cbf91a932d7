import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { createFixture, exec, type Fixture } from "./helpers/fixture.ts";

const GIT = ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "core.hooksPath=/dev/null"];

/** The fixture as a repository whose first commit tracks `.env` (a template; the secret comes later). */
function repository(f: Fixture, trackEnv: boolean): void {
  const git = (...args: string[]) => execFileSync("git", [...GIT, ...args], { cwd: f.ws, stdio: "pipe" });
  git("init", "-q");
  f.file(".env", "SECRET=placeholder\n");
  f.file("src/app.ts", "x\n");
  git("add", "-f", ...(trackEnv ? [".env"] : []), "src/app.ts");
  git("commit", "-qm", "init");
  f.file(".env", "SECRET=REAL_VALUE_123\n");
  f.file("src/app.ts", "y\n");
}

const unconfined = (f: Fixture) =>
  createPolicy({}, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh"), unconfinedBash: "unconfined" });

/** git reads the working tree of every tracked file for these: a tracked .env's new secret is printed or committed. */
const WORKTREE_READERS = [
  "git diff",
  "git diff HEAD",
  "git diff -- .",
  "git diff HEAD -- src",
  "git diff --cached",
  "git status -vv",
  "git add -u",
  "git add --update",
  "git commit -a -m x",
  "git commit -m x -- .",
];

describe("git commands that read the working tree of every tracked file, unconfined (agent hooks)", () => {
  it("are refused when the repository tracks a file read rules deny, which git diff would print", () => {
    const f = createFixture();
    repository(f, true);
    // What the hook would have let run: git prints the secret added to the tracked .env.
    expect(execFileSync("git", ["diff"], { cwd: f.ws, encoding: "utf8" })).toContain("REAL_VALUE_123");
    const policy = unconfined(f);
    for (const command of WORKTREE_READERS) {
      const decision = policy.check(exec(command));
      expect(decision.allow, command).toBe(false);
      expect(decision.allow ? "" : decision.reason, command).toContain('tracks ".env"');
    }
  });

  it("run as before where the denied file is not tracked (an ignored or untracked .env)", () => {
    const f = createFixture();
    repository(f, false);
    const policy = unconfined(f);
    for (const command of WORKTREE_READERS) {
      const decision = policy.check(exec(command));
      expect(decision.allow ? "allowed" : decision.reason, command).toBe("allowed");
    }
  });

  it("git add -A below the repository's top folder checks the whole repository, not only the working directory", () => {
    const f = createFixture();
    repository(f, false);
    const policy = createPolicy(
      {},
      {
        cwd: path.join(f.ws, "src"),
        home: f.home,
        gatehouseHome: path.join(f.base, "gh"),
        unconfinedBash: "unconfined",
      },
    );
    const decision = policy.check(exec("git add -A"));
    expect(decision.allow ? "allowed" : decision.reason).toContain(".env");
  });
});
