import path from "node:path";
import { braceExpand, Minimatch, type MinimatchOptions } from "minimatch";
import type { PolicyFs } from "../paths/policy-fs.ts";
import { MAX_SEARCHED_ENTRIES } from "./check-search.ts";
import { runBudgeted } from "./glob-budget.ts";

/**
 * Characters that make an effect's path a pattern some tool may expand: wildcards, classes, braces,
 * extended globs (`@(…)`, `!(…)`, `+(…)`) and escapes.
 */
const GLOB_MAGIC = /[*?[{\\]|[!@+]\(/;

/** How many paths a pattern's braces may stand for before it is refused as uncheckable. */
const MAX_ALTERNATIVES = 1_000;

/**
 * How the paths a pattern names are matched: as widely as any glob library a tool may use —
 * dot-files too (`dotglob`), either case, extended globs; braces are expanded first.
 */
const MATCH: MinimatchOptions = Object.freeze({
  dot: true,
  nocase: true,
  nonegate: true,
  nocomment: true,
  nobrace: true,
  optimizationLevel: 0,
});

/** True when an effect's path holds a glob character, so a tool may take it for a pattern. */
export function isGlobPath(text: string): boolean {
  return GLOB_MAGIC.test(text);
}

/** What a glob effect's path may stand for, or why that cannot be known. */
export type GlobTargets = { paths: string[] } | { problem: string };

/** Where to look for what a pattern matches. */
export interface GlobTargetOptions {
  cwd: string;
  home: string;
  fs: PolicyFs;
}

/** `~` and `~/x` expanded, as the built-in tools expand a path. */
function withHome(text: string, home: string): string {
  if (text === "~") return home;
  return text.startsWith("~/") ? `${home}${text.slice(1)}` : text;
}

/** Whether `dir` (an entry reached by the walk) is a folder, through a symbolic link too. */
function folderAt(fs: PolicyFs, dir: string, entry: { isDirectory: boolean; isSymbolicLink: boolean }) {
  if (entry.isDirectory) return fs.realpath(dir);
  if (!entry.isSymbolicLink) return undefined;
  const real = fs.realpath(dir);
  return real !== undefined && fs.lstat(real)?.isDirectory === true ? real : undefined;
}

/**
 * The existing paths one brace-free pattern matches, found by walking from the root (absolute) or the
 * working directory and pruning folders no match can lie in; symbolic links to folders are followed
 * (a tool's glob library may), each real folder entered once.
 */
function walkMatches(pattern: string, options: GlobTargetOptions): GlobTargets {
  // `a/./b` and `a//b` are `a/b` to the kernel and to a glob library alike. The walk starts at the
  // root or the working directory, not at the pattern's fixed start: a library that ignores case
  // matches `SRC/.EN?` in `src/` on a filesystem that does not fold it.
  const rest = pattern
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
  const start = pattern.startsWith("/") ? "/" : options.cwd;
  const matcher = runBudgeted(rest, () => new Minimatch(rest, MATCH));
  const paths: string[] = [];
  const seen = new Set<string>();
  const queue: { dir: string; rel: string }[] = [{ dir: start, rel: "" }];
  let entries = 0;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const real = options.fs.realpath(next.dir);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    const listed = options.fs.readdir(next.dir) ?? [];
    entries += listed.length;
    if (entries > MAX_SEARCHED_ENTRIES) {
      return { problem: `it would stand for more than ${MAX_SEARCHED_ENTRIES} entries, too many to check` };
    }
    const rels = listed.map((e) => (next.rel ? `${next.rel}/${e.name}` : e.name));
    const verdicts = runBudgeted(rest, () => rels.map((r) => [matcher.match(r), matcher.match(r, true)] as const));
    listed.forEach((entry, i) => {
      const [full, partial] = verdicts[i] ?? [false, false];
      const at = path.join(next.dir, entry.name);
      if (full) paths.push(at);
      if (partial && folderAt(options.fs, at, entry) !== undefined) queue.push({ dir: at, rel: rels[i] as string });
    });
  }
  return { paths };
}

/**
 * The paths an effect's path may stand for when the tool that declared it expands it as a glob:
 * every brace alternative as written (a tool may create it) and every existing path an alternative
 * with wildcards matches now, matched as widely as any glob library would.
 * Contract: absolute paths; `~` expanded. A pattern with a `..` segment (a glob library may resolve
 * it lexically or not: `link/..` is not the folder it is spelt in), more than
 * `MAX_ALTERNATIVES` brace alternatives, or a walk of more than `MAX_SEARCHED_ENTRIES` entries gives a
 * problem instead. Throws `GlobTooSlow` when matching the pattern exceeds the glob budget.
 */
export function globTargets(text: string, options: GlobTargetOptions): GlobTargets {
  const pattern = withHome(text, options.home);
  const alternatives = runBudgeted(pattern, () => braceExpand(pattern, { braceExpandMax: MAX_ALTERNATIVES + 1 }));
  if (alternatives.length > MAX_ALTERNATIVES) {
    return { problem: `its braces stand for more than ${MAX_ALTERNATIVES} paths, too many to check` };
  }
  const paths: string[] = [];
  for (const alternative of alternatives) {
    if (alternative.split("/").includes("..")) {
      return {
        problem: "it climbs with .., which a glob library may resolve otherwise than the path reads (through a link)",
      };
    }
    if (!isGlobPath(alternative)) {
      paths.push(path.resolve(options.cwd, alternative));
      continue;
    }
    const found = walkMatches(alternative, options);
    if ("problem" in found) return found;
    paths.push(...found.paths);
  }
  return { paths: [...new Set(paths)] };
}
