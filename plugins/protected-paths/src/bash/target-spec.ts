import type { ShellWord } from "./shell-word.ts";

/** A path a command reads or writes, as the analysis found it. */
export interface TargetSpec {
  access: "read" | "write";
  word: ShellWord;
  /** How the command touches it, for the block reason: "redirection", "tee", "cp destination", ... */
  via: string;
  /** The command acts on everything below it (rm -r, chmod -R, mv of a directory, find -delete). */
  recursive?: boolean;
  /**
   * git reads the working tree of every file its repository tracks (`git diff`, `git status -vv`,
   * `git commit -a`, `git add -u`): refused unconfined when a tracked file is one read rules deny;
   * `"everything"` (`git add -A` without a pathspec) also reads every file of the repository's tree,
   * above the working directory too.
   */
  tracked?: "tracked" | "everything";
  /** A recursive read that skips dot-files and dot-directories (rg without --hidden). */
  skipsHidden?: boolean;
  /**
   * The command puts a symbolic link there, or an entry whose contents come from elsewhere (mv, a
   * recursive cp): refused also where a write rule protects something inside (see `reachesThrough`).
   */
  creates?: boolean;
  /** cp/mv/ln/install: if `word` is a directory, each of these lands in it under its own basename. */
  into?: { sources: readonly ShellWord[]; forced: boolean };
  /** cp/mv: what the command moves or copies to `word` (with or without `-T`). */
  from?: readonly ShellWord[];
  /**
   * The target applies only when this folder (as written) exists: a link's text read from inside
   * `ln`'s destination, which holds the link only when it is a folder already.
   */
  onlyIfFolder?: string;
}

/** What one command contributes: its targets and the commands it runs (find -exec). */
export interface CommandEffects {
  targets: TargetSpec[];
  /** Commands run on the targets' behalf; their write targets act recursively. */
  commands?: ShellWord[][];
}

/** Extracts the targets of one command from its arguments (the command name excluded). */
export type CommandExtractor = (args: readonly ShellWord[]) => CommandEffects;

/** Targets of one access for every word. */
export function targetsOf(
  access: "read" | "write",
  words: readonly ShellWord[],
  via: string,
  recursive = false,
): TargetSpec[] {
  return words.map((word) => ({ access, word, via, recursive }));
}
