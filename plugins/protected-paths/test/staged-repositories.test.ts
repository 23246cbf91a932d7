import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { indexStamp, stagedDependencyRepositories } from "../src/sandbox/staged-repositories.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

describe("repositories staged as submodules in a dependency folder", () => {
  it("finds a repository planted in node_modules and staged as a gitlink, and nothing in an ordinary repository", () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "pp-staged-")));
    git(root, "init", "-q");
    git(root, "commit", "-q", "--allow-empty", "-m", "base");
    expect(stagedDependencyRepositories(root)).toEqual([]);
    const before = indexStamp(root);
    const planted = path.join(root, "node_modules", "foo");
    mkdirSync(planted, { recursive: true });
    git(planted, "init", "-q");
    git(planted, "commit", "-q", "--allow-empty", "-m", "x");
    const head = git(planted, "rev-parse", "HEAD").trim();
    git(root, "update-index", "--add", "--cacheinfo", `160000,${head},node_modules/foo`);
    expect(indexStamp(root)).not.toBe(before);
    expect(stagedDependencyRepositories(root)).toEqual([path.join(planted, ".git")]);
    // A gitlink outside a dependency folder is the sandbox review's (it sees every new .git there).
    const sub = path.join(root, "vendor", "lib");
    mkdirSync(sub, { recursive: true });
    git(sub, "init", "-q");
    git(sub, "commit", "-q", "--allow-empty", "-m", "y");
    git(root, "update-index", "--add", "--cacheinfo", `160000,${git(sub, "rev-parse", "HEAD").trim()},vendor/lib`);
    expect(stagedDependencyRepositories(root)).toEqual([path.join(planted, ".git")]);
  });

  it("answers none where there is no repository", () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), "pp-staged-")));
    expect(indexStamp(root)).toBeUndefined();
    expect(stagedDependencyRepositories(root)).toEqual([]);
  });
});
