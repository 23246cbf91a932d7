import { spawnSync } from "node:child_process";
import { lstatSync } from "node:fs";
import path from "node:path";
import { DEPENDENCY_DIRS } from "../scan/deny-index.ts";

/** What `.git/index` of a workspace root was, to tell whether a run staged anything. */
export function indexStamp(root: string): string | undefined {
  const st = lstatSync(path.join(root, ".git", "index"), { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
}

/**
 * The repositories below a dependency folder that the index of `root` stages as submodules: the
 * `.git` folder of each gitlink (mode 160000) inside a `node_modules`. The sandbox does not review
 * `node_modules`, so a command can plant `node_modules/x/.git` (with a `core.fsmonitor`) there and
 * stage it (`git update-index --cacheinfo 160000,…`); git run in the project later recurses into it.
 * Contract: asks the host's git (`ls-files -s`, which reads the index and runs nothing the agent
 * wrote: the project's `.git/config` is protected); no git, or no repository, gives none.
 */
export function stagedDependencyRepositories(root: string): string[] {
  const listed = spawnSync("git", ["-C", root, "ls-files", "-s", "-z"], {
    encoding: "utf8",
    timeout: 10_000,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
  });
  if (listed.status !== 0 || typeof listed.stdout !== "string") return [];
  const found: string[] = [];
  for (const entry of listed.stdout.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab === -1 || !entry.startsWith("160000 ")) continue;
    const rel = entry.slice(tab + 1);
    if (!rel.split("/").some((segment) => DEPENDENCY_DIRS.has(segment))) continue;
    const repo = path.join(root, rel, ".git");
    if (lstatSync(repo, { throwIfNoEntry: false }) !== undefined) found.push(repo);
  }
  return found;
}
