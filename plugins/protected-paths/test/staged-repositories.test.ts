import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StagedDependencies, stagedDependencyFolders } from "../src/sandbox/staged-repositories.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

/** A repository with one commit, in a fresh temp folder. */
function repository(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "pp-staged-")));
  git(root, "init", "-q");
  git(root, "commit", "-q", "--allow-empty", "-m", "base");
  return root;
}

/** Plants a repository with one commit at `folder`; returns its commit. */
function plant(folder: string): string {
  mkdirSync(folder, { recursive: true });
  git(folder, "init", "-q");
  git(folder, "commit", "-q", "--allow-empty", "-m", "x");
  return git(folder, "rev-parse", "HEAD").trim();
}

describe("repositories staged as submodules in a dependency folder", () => {
  it("lists the gitlinks inside node_modules only", () => {
    const root = repository();
    expect(stagedDependencyFolders(root)).toEqual([]);
    const head = plant(path.join(root, "node_modules", "foo"));
    git(root, "update-index", "--add", "--cacheinfo", `160000,${head},node_modules/foo`);
    const vendored = plant(path.join(root, "vendor", "lib"));
    git(root, "update-index", "--add", "--cacheinfo", `160000,${vendored},vendor/lib`);
    expect(stagedDependencyFolders(root)).toEqual([path.join(root, "node_modules", "foo")]);
  });

  it("catches one planted under a folder whose name is not UTF-8 (and one whose name git quotes)", () => {
    const root = repository();
    const watch = new StagedDependencies(root);
    const before = watch.before();
    // The folder node_modules/w\xff, made, planted and staged by a shell (raw bytes in its name).
    execFileSync(
      "sh",
      [
        "-c",
        [
          "d=node_modules/$(printf 'w\\377')",
          'mkdir -p "$d" && git -C "$d" init -q',
          'git -C "$d" -c user.email=t@t -c user.name=t commit -q --allow-empty -m x',
          'git update-index --add --cacheinfo "160000,$(git -C "$d" rev-parse HEAD),$d"',
        ].join(" && "),
      ],
      { cwd: root },
    );
    const tabbed = plant(path.join(root, "node_modules", 'a\t"b'));
    git(root, "update-index", "--add", "--cacheinfo", `160000,${tabbed},node_modules/a\t"b`);
    expect(watch.planted(before).sort()).toEqual(
      [path.join(root, "node_modules", "w\udcff", ".git"), path.join(root, "node_modules", 'a\t"b', ".git")].sort(),
    );
  });

  it("catches a repository planted and staged in one run", () => {
    const root = repository();
    const watch = new StagedDependencies(root);
    const before = watch.before();
    const head = plant(path.join(root, "node_modules", "foo"));
    git(root, "update-index", "--add", "--cacheinfo", `160000,${head},node_modules/foo`);
    expect(watch.planted(before)).toEqual([path.join(root, "node_modules", "foo", ".git")]);
  });

  it("catches a repository planted in a later run under a gitlink staged earlier, and leaves one that was there", () => {
    const root = repository();
    const head = git(root, "rev-parse", "HEAD").trim();
    const watch = new StagedDependencies(root);
    // Run 1 stages the gitlink while no repository is there: nothing to take out yet.
    let before = watch.before();
    git(root, "update-index", "--add", "--cacheinfo", `160000,${head},node_modules/x`);
    expect(watch.planted(before)).toEqual([]);
    // Run 2 plants the repository without touching the index.
    before = watch.before();
    plant(path.join(root, "node_modules", "x"));
    expect(watch.planted(before)).toEqual([path.join(root, "node_modules", "x", ".git")]);
    // A repository that was there when a run started is not that run's doing.
    expect(watch.planted(watch.before())).toEqual([]);
  });
});
