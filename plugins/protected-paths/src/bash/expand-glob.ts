import path from "node:path";
import { matchingNames } from "../check/glob-budget.ts";
import type { PolicyFs } from "../paths/policy-fs.ts";
import type { ShellWord } from "./shell-word.ts";

const UNESCAPED_GLOB = /(^|[^\\])(\\\\)*[*?[]/;

function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/g, "$1");
}

/**
 * The paths a word may stand for when the shell runs: its text, plus, for a glob in the last
 * segment, every entry of that directory it matches.
 * Contract: the word's text is always included (bash passes an unmatched glob literally);
 * matching is deliberately wider than bash's default — `*` also matches dotfiles, as with
 * `shopt -s dotglob` — and case-insensitive when `folding`. Throws `GlobTooSlow` past the glob budget. Returns `undefined` when a directory
 * segment is a glob (not expanded: the caller refuses writes through it).
 */
export function expandGlob(
  word: ShellWord,
  options: { cwd: string; fs: PolicyFs; folding: boolean },
): string[] | undefined {
  if (word.glob === undefined) return [word.text];
  const slash = word.glob.lastIndexOf("/");
  const dirPart = slash === -1 ? "" : word.glob.slice(0, slash + 1);
  if (UNESCAPED_GLOB.test(dirPart)) return undefined;
  const prefix = unescapePattern(dirPart);
  const names = (options.fs.readdir(path.resolve(options.cwd, prefix || ".")) ?? []).map((e) => e.name);
  const globOptions = { dot: true, nocase: options.folding, nonegate: true };
  return [word.text, ...matchingNames(word.glob.slice(slash + 1), names, globOptions).map((name) => prefix + name)];
}
