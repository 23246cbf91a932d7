import { execFileSync } from "node:child_process";
import { linkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(outcome(grep(policy, f.ws))).toMatch(/Grep of .* refused: it would search "\.env" \(git does not ignore it/);
    expect(outcome(grep(policy, path.join(f.ws, "src")))).toBe("allow");
    f.file(".gitignore", ".env\n");
    expect(outcome(grep(policy, f.ws))).toBe("allow");
  });

  it("is refused outside a repository, where ripgrep reads no .gitignore", () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
    f.file(".gitignore", ".env\n");
    expect(outcome(grep(f.policy(), f.ws))).toMatch(
      /would search "\.env" \(ripgrep reads no \.gitignore outside a repository/,
    );
  });

  it("is refused when its glob names a protected file, which overrides every ignore file", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    const policy = f.policy();
    // A glob with a slash is matched from ripgrep's own working directory, not the root: it names anything.
    for (const glob of [
      ".env",
      "*",
      "**/.e*",
      "*.{ts,env}",
      "*.ts .env",
      "*.ts,.env",
      ".[e]nv",
      "/.env",
      "\\.env",
      "src/**",
    ]) {
      expect(outcome(grep(policy, f.ws, glob)), glob).toMatch(/would search "\.env" \(its glob names it\)/);
    }
    for (const glob of ["*.ts", "!*.md", "*.md"]) expect(outcome(grep(policy, f.ws, glob)), glob).toBe("allow");
  });

  it("does not take git's word for a negated, unusual or tracked ignore", () => {
    const f = repository();
    const policy = f.policy();
    // Lines git and ripgrep read differently: a negation, a bracket, a tab after a negation
    // (ripgrep trims it, git does not), a carriage return.
    for (const text of [".env\n!.env\n", ".e[n]v\n", ".env\n!.env\t\n", ".env\r\n"]) {
      f.file(".gitignore", text);
      expect(outcome(grep(policy, f.ws)), JSON.stringify(text)).toMatch(/may read differently/);
    }
    // ripgrep stops reading at invalid UTF-8; older ones take a byte-order mark as part of the line.
    writeFileSync(path.join(f.ws, ".gitignore"), Buffer.from("# r\xe9glages\n.env\n", "latin1"));
    expect(outcome(grep(policy, f.ws))).toMatch(/may read differently/);
    f.file(".gitignore", "\ufeff.env\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/may read differently/);
    // A pattern with a slash is matched by ripgrep against the path as the search spelled it.
    f.file(".gitignore", "/.env\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it by a plain/);
    // Three stars before a slash match for git, not for ripgrep.
    f.file(".gitignore", "***/.env\n");
    expect(outcome(grep(policy, f.ws))).toMatch(/may read differently/);
    // ripgrep knows nothing of the index: a tracked file it ignores like any other.
    f.file(".gitignore", ".env\n");
    git(f.ws, "add", "-f", ".env");
    expect(outcome(grep(policy, f.ws))).toBe("allow");
  });

  it("does not take a .gitignore that is not on the disk, a link to the root, or a .git below the top", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    git(f.ws, "add", ".gitignore");
    git(f.ws, "update-index", "--skip-worktree", ".gitignore");
    rmSync(path.join(f.ws, ".gitignore"));
    const policy = f.policy();
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it/);
    f.file(".gitignore", ".env\n/config/.env.production\n");
    f.file("config/.env.production", "DB_PASSWORD=s3cret\n");
    symlinkSync("config", path.join(f.ws, "cfg"));
    expect(outcome(grep(policy, path.join(f.ws, "cfg")))).toMatch(/would search "\.env\.production"/);
    f.dir("sub/.git");
    f.file("sub/.env", "X=1\n");
    expect(outcome(grep(policy, path.join(f.ws, "sub")))).toMatch(/a \.git between the repository's top/);
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

  it("takes only the .gitignore files and info/exclude ripgrep reads, and no rule across a nested repository", () => {
    const f = repository();
    const policy = f.policy();
    // An excludes file the repository's configuration names: git reads it, ripgrep does not.
    f.file(".git/myexcludes", ".env\n");
    git(f.ws, "config", "core.excludesFile", path.join(f.ws, ".git", "myexcludes"));
    expect(outcome(grep(policy, f.ws))).toMatch(/git does not ignore it/);
    f.file(".git/info/exclude", ".env\n");
    expect(outcome(grep(policy, f.ws))).toBe("allow");
    // ripgrep applies no outer rule inside a repository of its own.
    f.file("vendor/lib/.env", "API_KEY=nested\n");
    git(path.join(f.ws, "vendor", "lib"), "init", "-q");
    expect(outcome(grep(policy, f.ws))).toMatch(/would search "vendor\/lib\/\.env"/);
  });

  it("reads a hard link of a protected file as that file", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "src", "settings.txt"));
    expect(outcome(f.policy().checkSearch({ root: f.ws, subject: "Grep" }))).toMatch(
      /would search "src\/settings\.txt"/,
    );
  });

  it("walks a dependency folder when git does not ignore it or a glob names it", () => {
    const f = repository();
    f.file(".gitignore", ".env\nnode_modules\n");
    f.file("node_modules/pkg/.env", "API_KEY=dep\n");
    const policy = f.policy();
    expect(outcome(grep(policy, f.ws))).toBe("allow");
    // Naming the folder lets ripgrep enter it; a file inside is read when a glob names it too.
    expect(outcome(grep(policy, f.ws, "node_modules,*.js"))).toBe("allow");
    expect(outcome(grep(policy, f.ws, "node_modules,.e*"))).toMatch(/its glob names it/);
    expect(outcome(grep(policy, f.ws, "node_modules,**/pkg/*"))).toMatch(/\.env/);
    // Nothing ignores the folder or the file in it.
    rmSync(path.join(f.ws, ".env"));
    f.file(".gitignore", "");
    expect(outcome(grep(policy, f.ws))).toMatch(/would search "node_modules\/pkg\/\.env"/);
  });

  it("takes braces, brackets and escapes as naming anything: ripgrep reads {.env} as .env", () => {
    const f = repository();
    f.file(".gitignore", ".env\n");
    const policy = f.policy();
    for (const glob of ["{.env}", ".e{n}v", "{*}", "*{}", ".en[v]"]) {
      expect(outcome(grep(policy, f.ws, glob)), glob).toMatch(/its glob names it/);
    }
  });

  it("does not trust an ignore of the folder searched itself, nor git's case folding", () => {
    const f = repository();
    f.file("config/.env", "DB_PASSWORD=s3cret\n");
    f.file(".gitignore", "config/\n");
    const policy = f.policy();
    // ripgrep, told to search config/, reads it although git ignores the folder.
    expect(outcome(grep(policy, path.join(f.ws, "config")))).toMatch(/git ignores the folder searched/);
    // A pattern in a .gitignore between the top and the root counts (git names it from the top).
    f.file("a/b/.env", "X=1\n");
    f.file("a/.gitignore", ".env\n");
    expect(outcome(grep(policy, path.join(f.ws, "a", "b")))).toBe("allow");
    // core.ignorecase makes git match .ENV to .env; ripgrep never folds case.
    f.file(".gitignore", ".ENV\nconfig/\n");
    git(f.ws, "config", "core.ignorecase", "true");
    expect(outcome(grep(policy, f.ws))).toMatch(/would search "\.env"/);
  });

  it("decides its root as a read first", () => {
    const f = repository();
    const ssh = f.file(path.join(f.home, ".ssh", "id_ed25519"));
    expect(outcome(grep(f.policy(), path.dirname(ssh)))).toMatch(/Read of .*\.ssh/);
    expect(outcome(grep(f.policy(), path.join(f.ws, ".env")))).toMatch(/Read of .*\.env/);
  });
});
