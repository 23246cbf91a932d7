import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Decision, Policy } from "../src/index.ts";
import { createFixture, type Fixture } from "./helpers/fixture.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** The fixture's project as a real repository (its `.env` is not ignored yet). */
function repository(): Fixture {
  const f = createFixture();
  rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
  git(f.ws, "init", "-q");
  return f;
}

function grep(policy: Policy, root: string, glob?: string): Decision {
  return policy.checkSearch({ root, globs: glob === undefined ? [] : [glob], subject: "Grep" });
}

/** "allow", or the refusal's reason. */
function outcome(decision: Decision): string {
  return decision.allow ? "allow" : decision.reason;
}

describe("a whole-tree search by another agent's tool (Claude Code's Grep)", () => {
  it("is refused when it would read a protected file below its root that git does not ignore", () => {
    const f = repository();
    const policy = f.policy();
    expect(outcome(grep(policy, f.ws))).toMatch(
      /Grep of .* refused: it would search "\.env" \(git does not ignore it\)/,
    );
    expect(outcome(grep(policy, path.join(f.ws, "src")))).toBe("allow");
    f.file(".gitignore", ".env\n");
    expect(outcome(grep(policy, f.ws))).toBe("allow");
  });

  it("is refused outside a repository, where ripgrep reads no .gitignore", () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
    f.file(".gitignore", ".env\n");
    expect(outcome(grep(f.policy(), f.ws))).toMatch(/would search "\.env" \(git does not ignore it\)/);
  });

  it("is refused when its glob names a protected file, which overrides every ignore file", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    const policy = f.policy();
    for (const glob of [".env", "*", "**/.e*", "*.{ts,env}", "*.ts .env", "*.ts,.env", ".[e]nv", "/.env", "\\.env"]) {
      expect(outcome(grep(policy, f.ws, glob)), glob).toMatch(/would search "\.env" \(its glob names it\)/);
    }
    for (const glob of ["*.ts", "src/**", "!*.md", "*.md"])
      expect(outcome(grep(policy, f.ws, glob)), glob).toBe("allow");
  });

  it("does not take git's word for a negated, unusual or tracked ignore", () => {
    const f = repository();
    const policy = f.policy();
    f.file(".gitignore", ".env\n!.env\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it/);
    f.file(".gitignore", ".e[n]v\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it/);
    f.file(".gitignore", "/.env\n");
    expect(outcome(grep(policy, f.ws))).toBe("allow");
    git(f.ws, "add", "-f", ".env");
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it/);
  });

  it("counts a protected file as searched when an .ignore or .rgignore can list it back", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    const policy = f.policy();
    f.file("src/.rgignore", "");
    expect(outcome(grep(policy, f.ws))).toMatch(/an \.ignore or \.rgignore file can list it back/);
    rmSync(path.join(f.ws, "src", ".rgignore"));
    writeFileSync(path.join(f.base, ".ignore"), "!.env\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/an \.ignore or \.rgignore file can list it back/);
  });

  it("decides its root as a read first", () => {
    const f = repository();
    const ssh = f.file(path.join(f.home, ".ssh", "id_ed25519"));
    expect(outcome(grep(f.policy(), path.dirname(ssh)))).toMatch(/Read of .*\.ssh/);
    expect(outcome(grep(f.policy(), path.join(f.ws, ".env")))).toMatch(/Read of .*\.env/);
  });
});
