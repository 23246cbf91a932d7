import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DenyMatch } from "../scan/deny-index.ts";
import { atShortPath, lstatAt } from "../scan/raw-fs.ts";

/** The rule named in violations for sequencer state that runs a program on the host. */
export const SEQUENCER_PROGRAM = "sandbox review: git state that runs a program";

/** A file bigger than this is not read: taken for one that runs a program (fail closed). */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/** How deep `.git/modules` is searched for submodules' repositories (their names may hold slashes). */
const MAX_MODULE_DEPTH = 6;

/**
 * Merge strategies git runs itself (ort, recursive, subtree, ours) or from its own exec-path
 * (resolve, octopus). Any other name is `git merge-<name>`: found in PATH, or — with a slash in
 * it — run as a path from the worktree (`../evil` runs `./git-merge-../evil`).
 */
const BUILTIN_STRATEGY = /^(ort|recursive|resolve|octopus|ours|subtree)$/;

/** Where git keeps what `rebase --continue` or `cherry-pick`/`revert --continue` picks up again. */
type StateKind = "todo" | "strategy" | "opts";

/** One sequencer state file of one repository. */
export interface SequencerState {
  path: string;
  kind: StateKind;
}

/**
 * The sequencer state files of each repository — its `.git`, every linked worktree's and every
 * submodule's — that name something the next `--continue` outside the sandbox runs: an
 * interactive rebase's todo (exec lines), the merge strategy a rebase keeps, and the options of a
 * cherry-pick or revert (its strategy).
 */
export function sequencerStates(matches: readonly DenyMatch[]): SequencerState[] {
  const gitDirs = matches
    .filter((m) => m.identity.kind === "dir" && path.basename(m.path) === ".git")
    .flatMap((m) => [m.path, ...subfolders(path.join(m.path, "worktrees")), ...modules(path.join(m.path, "modules"))]);
  return gitDirs.flatMap((dir) => [
    { path: path.join(dir, "rebase-merge", "git-rebase-todo"), kind: "todo" as const },
    { path: path.join(dir, "rebase-merge", "strategy"), kind: "strategy" as const },
    { path: path.join(dir, "rebase-apply", "strategy"), kind: "strategy" as const },
    { path: path.join(dir, "sequencer", "opts"), kind: "opts" as const },
  ]);
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

/**
 * Submodules' repositories below `.git/modules`: a folder holding `HEAD` is one (and may hold its
 * own `modules`); any other folder is part of a name with slashes (`modules/libs/a`).
 */
function modules(dir: string, depth = 0): string[] {
  if (depth >= MAX_MODULE_DEPTH) return [];
  return subfolders(dir).flatMap((sub) =>
    stateStamp(path.join(sub, "HEAD")) !== undefined
      ? [sub, ...modules(path.join(sub, "modules"), depth + 1)]
      : modules(sub, depth + 1),
  );
}

/** What is at `p` (identity and timestamps), to tell whether a run changed it; undefined when nothing is. */
export function stateStamp(p: string): string | undefined {
  try {
    const st = lstatAt(p);
    return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
  } catch {
    return "unreadable";
  }
}

/**
 * What a sequencer state file makes the next `--continue` on the host run, in words for a reason,
 * or `undefined` when it runs nothing of the command's choosing. Anything that is not a regular
 * file small enough to read runs something (fail closed).
 */
export function stateRunsProgram(state: SequencerState): string | undefined {
  const continued =
    state.kind === "opts"
      ? "the next `git cherry-pick --continue` or `git revert --continue`"
      : "the next `git rebase --continue`";
  let text: string | null | undefined;
  try {
    text = readState(state.path);
  } catch {
    return `it could not be read, and ${continued} outside the sandbox would read it`;
  }
  if (text === null) return undefined;
  if (text === undefined) {
    return `it is not a file git's state can be checked in, and ${continued} outside the sandbox would read it`;
  }
  const runs = `${continued} outside the sandbox runs it on the host`;
  if (state.kind === "todo") {
    return text.split("\n").some((line) => /^\s*(exec|x)(\s|$)/.test(line))
      ? `it holds exec lines, and ${runs}`
      : undefined;
  }
  if (state.kind === "strategy") {
    // git reads the file whole, less one trailing newline (or CRLF).
    const name = text.replace(/\r?\n$/, "");
    return BUILTIN_STRATEGY.test(name)
      ? undefined
      : `it names a merge strategy that is not one of git's own (git runs git-merge-<name> for it), and ${runs}`;
  }
  return optsStrategy(text, runs);
}

/**
 * The text of a state file: null when nothing is there, undefined when it is not a regular file
 * small enough to read. Opened without following a link or waiting on a FIFO, and checked as opened.
 */
function readState(p: string): string | null | undefined {
  let fd: number;
  try {
    fd = atShortPath(p, (at) => openSync(at, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    if (code === "ELOOP") return undefined;
    throw error;
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && st.size <= MAX_STATE_BYTES ? readFileSync(fd, "utf8") : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A cherry-pick's or revert's `sequencer/opts` is a git config file; its `options.strategy` names
 * the strategy. A key cannot be spelled without its letters, so every line that mentions
 * "strategy" must be a plain `strategy = <built-in>` or a `strategy-option` (-X, read by the
 * strategy itself); anything else (`[options] strategy = …` on one line, a quoted or continued
 * value) is taken as naming a program.
 */
function optsStrategy(text: string, runs: string): string | undefined {
  const odd = text
    .split("\n")
    .find(
      (line) =>
        /strategy/i.test(line) &&
        !/^\s*strategy-option\s*=/i.test(line) &&
        !/^\s*strategy\s*=\s*(ort|recursive|resolve|octopus|ours|subtree)\s*\r?$/i.test(line),
    );
  return odd === undefined ? undefined : `it names a merge strategy that is not one of git's own, and ${runs}`;
}
