import path from "node:path";
import { runHostGit } from "./host-git.ts";

/** One path git matched against an ignore pattern. */
export interface IgnoreMatch {
  /** The ignore file (absolute) and the pattern as written there (a negation starts with `!`). */
  source: string;
  pattern: string;
}

/**
 * The ignore pattern git matches each of `paths` against (relative to the repository's `top`;
 * folders with a trailing slash), asked of the host's git (`runHostGit`) in one `check-ignore -v`, matching case
 * exactly (`core.ignorecase` off: ripgrep never folds case). A path that matches a negation is
 * listed too (its pattern starts with `!`).
 * Contract: never throws; no git, no repository or any failure gives an empty map (nothing is
 * taken as ignored). The index is not consulted: a tracked file is matched like any other.
 */
export function gitIgnoreMatches(top: string, paths: readonly string[]): Map<string, IgnoreMatch> {
  const matches = new Map<string, IgnoreMatch>();
  if (paths.length === 0) return matches;
  // --no-index: ripgrep knows nothing of the index (a tracked file is matched like any other, and
  // a `.gitignore` missing from the disk, kept only in the index by a sparse checkout, is not read).
  const answer = runHostGit(["-c", "core.ignorecase=false", "check-ignore", "--no-index", "-v", "-z", "--stdin"], {
    cwd: top,
    input: `${paths.join("\0")}\0`,
  });
  // 0: some match; 1: none; anything else (128: no repository) says nothing.
  if (answer?.status !== 0 || typeof answer.stdout !== "string") return matches;
  // -v -z: source NUL line NUL pattern NUL path NUL, per matching path; the source is relative to top.
  const fields = answer.stdout.split("\0");
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const source = path.resolve(top, fields[i] as string);
    matches.set(fields[i + 3] as string, { source, pattern: fields[i + 2] as string });
  }
  return matches;
}
