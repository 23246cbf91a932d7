import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DenyMatch } from "../scan/deny-index.ts";
import { lstatAt } from "../scan/raw-fs.ts";

/** The rule named in violations for a rebase todo that runs commands. */
export const REBASE_EXEC = "sandbox review: a rebase todo that runs commands";

/** Why such a todo is taken out, for reasons. */
export const REBASE_EXEC_WHY = "the next `git rebase --continue` outside the sandbox runs its exec lines on the host";

/** A todo larger than this is not read: taken for one that runs commands (fail closed). */
const MAX_TODO_BYTES = 4 * 1024 * 1024;

/** The todo of an interactive rebase of each repository: its `.git` and every linked worktree's. */
export function rebaseTodos(matches: readonly DenyMatch[]): string[] {
  const gitDirs = matches
    .filter((m) => m.identity.kind === "dir" && path.basename(m.path) === ".git")
    .flatMap((m) => [m.path, ...subfolders(path.join(m.path, "worktrees"))]);
  return gitDirs.map((dir) => path.join(dir, "rebase-merge", "git-rebase-todo"));
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** What is at `p` (identity and timestamps), to tell whether a run changed it; undefined when nothing is. */
export function todoStamp(p: string): string | undefined {
  try {
    const st = lstatAt(p);
    return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
  } catch {
    return "unreadable";
  }
}

/**
 * Whether a rebase todo runs commands: an `exec`/`x` line (git reads the command after it with the
 * shell), or anything that is not a regular file small enough to read (fail closed).
 */
export function todoRunsCommands(p: string): boolean {
  try {
    const st = lstatAt(p);
    if (st === undefined) return false;
    if (!st.isFile() || st.size > MAX_TODO_BYTES) return true;
    return readFileSync(p, "utf8")
      .split("\n")
      .some((line) => /^\s*(exec|x)(\s|$)/.test(line));
  } catch {
    return true;
  }
}
