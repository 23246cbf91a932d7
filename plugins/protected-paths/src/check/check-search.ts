import { lstatSync } from "node:fs";
import path from "node:path";
import { allow, type Decision, deny } from "../decision.ts";
import { showPath } from "../paths/path-text.ts";
import type { FileInfo } from "../paths/policy-fs.ts";
import type { DenyRule } from "../rules/deny-rule.ts";
import { DEPENDENCY_DIRS } from "../scan/deny-index.ts";
import { gitIgnoreMatches, type IgnoreMatch } from "../scan/git-ignored.ts";
import { ignoreFilesAbove, plainIgnoreFile, repositoryBoundaryBelow, repositoryOf } from "../scan/ignore-files.ts";
import { GlobTooSlow, matchingNames, withGlobBudget } from "./glob-budget.ts";
import { matchView } from "./match-view.ts";
import type { PolicyContext } from "./policy-context.ts";

/** A content search through a whole tree by another agent's tool (Claude Code's `Grep`, built on ripgrep). */
export interface TreeSearch {
  /** The folder searched (absolute); a file is decided as a plain read. */
  root: string;
  /** The tool's file globs (`--glob`): one that names a file makes the search read it even when ignored. */
  globs?: readonly string[];
  /** Who searches, for the message (`Grep`). */
  subject: string;
}

/** Other names of protected files (hard links), for a walk that meets them under another name. */
export interface HardLinks {
  /** False when no protected file has a second name: the walk need not look at each file's inode. */
  any: boolean;
  aliasOf: (info: FileInfo) => { path: string; rule: DenyRule } | undefined;
}

/** How many entries a searched tree may have before the check gives up and refuses. */
export const MAX_SEARCHED_ENTRIES = 100_000;

/** Files that tell ripgrep what to skip or search besides `.gitignore`: the agent can write them. */
const RG_IGNORE_FILES = new Set([".ignore", ".rgignore"]);

/** An entry below the root: a path and whether it is a folder. */
interface Entry {
  path: string;
  folder: boolean;
}

/** A protected entry, with the rule that protects it. */
interface Protected extends Entry {
  rule: DenyRule;
}

/** What a walk below the root found. */
interface Walk {
  found: Protected[];
  /** An `.ignore` or `.rgignore` below the root. */
  rgIgnore: boolean;
  /** The `.gitignore` files below the root. */
  gitignores: string[];
  /** Folders below the root that hold a repository of their own: ripgrep applies no outer rule inside. */
  nested: string[];
  /** Dependency folders not entered yet. */
  dependencies: Entry[];
  seen: number;
}

/**
 * Every entry below `dir` that a read rule denies (a denied folder is reported, not entered),
 * without following links (ripgrep does not); a file that is a hard link of a protected file
 * counts as that file. Dependency folders are only listed (`DEPENDENCY_DIRS`), unless `enter`.
 */
function walkBelow(ctx: PolicyContext, dir: string, links: HardLinks | undefined, walk: Walk, enter: boolean): boolean {
  const queue = [dir];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const entry of ctx.fs.readdir(next) ?? []) {
      walk.seen += 1;
      if (walk.seen > MAX_SEARCHED_ENTRIES) return false;
      const full = path.join(next, entry.name);
      if (RG_IGNORE_FILES.has(entry.name)) walk.rgIgnore = true;
      if (entry.name === ".gitignore") walk.gitignores.push(full);
      if (entry.name === ".git" && next !== dir) walk.nested.push(next);
      const folder = entry.isDirectory && !entry.isSymbolicLink;
      if (folder && !enter && DEPENDENCY_DIRS.has(entry.name)) {
        walk.dependencies.push({ path: full, folder: true });
        continue;
      }
      const rule = ctx.rules.read.find((r) => r.matches(matchView(ctx, full)));
      if (rule) walk.found.push({ path: full, rule, folder });
      else if (folder) queue.push(full);
      else if (links?.any && !entry.isSymbolicLink) {
        const info = ctx.fs.lstat(full);
        const alias = info && info.nlink > 1 ? links.aliasOf(info) : undefined;
        if (alias) walk.found.push({ path: full, rule: alias.rule, folder: false });
      }
    }
  }
  return true;
}

/** True when an ignore file of ripgrep's own sits in `dir` or a folder above it. */
function rgIgnoreAbove(ctx: PolicyContext, dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    for (const name of RG_IGNORE_FILES) if (ctx.fs.lstat(path.join(at, name)) !== undefined) return true;
    if (path.dirname(at) === at) return false;
  }
}

/**
 * True unless the glob certainly does not name `rel`: only a glob of names, `*` and `?` is matched
 * (against every base name, as ripgrep matches a glob without a slash). One with a slash is
 * matched from ripgrep's own working directory, not the root, and braces, brackets and escapes
 * mean other things to ripgrep than to minimatch (`{.env}` is `.env` there): such a glob is taken
 * to name everything.
 */
function globMayName(glob: string, rel: string): boolean {
  if (!/^[\w.*?, -]+$/.test(glob)) return true;
  return matchingNames(glob, [path.basename(rel)], { dot: true, nocase: true }).length > 0;
}

/** The positive globs of a search, split the ways its tool may split them (white space, commas). */
function positiveGlobs(globs: readonly string[]): string[] {
  const out: string[] = [];
  for (const glob of globs) {
    for (const part of [glob, ...glob.split(/[\s,]+/)]) {
      if (part !== "" && !part.startsWith("!")) out.push(part);
    }
  }
  return out;
}

/** An entry's path relative to `from`, as git is asked about it (a folder with a trailing slash). */
function relativeOf(from: string, p: Entry): string {
  return `${path.relative(from, p.path)}${p.folder ? "/" : ""}`;
}

/**
 * An ignore that ripgrep certainly applies too: a pattern of one segment (a name with single `*`
 * wildcards, a trailing `/` at most), which matches a base name wherever the path leads (a
 * pattern with a slash is matched by ripgrep against the path as the search spelled it: through a
 * linked root or a `./`, it misses), from an ignore file ripgrep reads (`counts`) that exists on
 * the disk, ignoring rather than listing back.
 */
function certainIgnore(match: IgnoreMatch | undefined, counts: (source: string) => boolean): boolean {
  return (
    match !== undefined &&
    counts(match.source) &&
    lstatSync(match.source, { throwIfNoEntry: false })?.isFile() === true &&
    TRUSTED_PATTERN.test(match.pattern)
  );
}

/** One segment of names and single `*` wildcards, a trailing slash at most. */
const TRUSTED_PATTERN = /^(?:[\w.-]|\*(?!\*))+\/?$/;

/**
 * Which entries below `real` ripgrep certainly skips because git ignores them: only where git and
 * ripgrep read the same rules alike — a repository with a `.git` folder, no case folding, no
 * `.ignore`/`.rgignore` anywhere, every `.gitignore` on the way and `info/exclude` plain (see
 * `plainIgnoreFile`), the pattern from one of them (not an excludes file the configuration
 * names), no repository nested on the way, and a root that git does not ignore itself (ripgrep
 * never applies the rules to the folder it is told to search). Paths relative to `real`.
 */
function skippedByIgnores(
  ctx: PolicyContext,
  real: string,
  walk: Walk,
  entries: readonly Entry[],
): { skipped: Set<string>; doubt: string } {
  const none = (doubt: string) => ({ skipped: new Set<string>(), doubt });
  if (ctx.folding) return none("on a case-insensitive file system git and ripgrep match ignore patterns differently");
  if (walk.rgIgnore || rgIgnoreAbove(ctx, real)) return none("an .ignore or .rgignore file can list it back");
  const repo = repositoryOf(real);
  if (repo === undefined) return none("ripgrep reads no .gitignore outside a repository");
  if (repositoryBoundaryBelow(real, repo.top)) {
    return none(
      "a .git between the repository's top and the folder searched makes ripgrep stop reading the outer rules",
    );
  }
  const files = [...ignoreFilesAbove(real, repo.top), ...walk.gitignores, repo.exclude];
  const unplain = files.find((file) => !plainIgnoreFile(file));
  if (unplain !== undefined) {
    return none(
      `${showPath(unplain)} has lines git and ripgrep may read differently (negations, escapes, white space)`,
    );
  }
  const counts = (source: string) =>
    source === repo.exclude || (path.basename(source) === ".gitignore" && files.includes(source));
  const outside = (p: Entry) => !walk.nested.some((n) => p.path.startsWith(`${n}${path.sep}`));
  const asked = entries.filter(outside).map((p) => relativeOf(repo.top, p));
  // The root and the folders between it and the top: git would take a pattern of theirs for the
  // files inside, which ripgrep, told to search there, reads anyway.
  const above: string[] = [];
  for (let at = real; at !== repo.top && path.dirname(at) !== at; at = path.dirname(at)) {
    above.push(relativeOf(repo.top, { path: at, folder: true }));
  }
  const matches = gitIgnoreMatches(repo.top, [...above, ...asked]);
  if (above.some((folder) => matches.has(folder)))
    return none("git ignores the folder searched, which ripgrep reads anyway");
  const skipped = new Set<string>();
  for (const p of entries) {
    if (outside(p) && certainIgnore(matches.get(relativeOf(repo.top, p)), counts)) skipped.add(relativeOf(real, p));
  }
  return { skipped, doubt: "git does not ignore it by a plain .gitignore pattern" };
}

/**
 * Decides a search of a whole tree by a tool that runs unconfined (Claude Code's `Grep`): refused
 * when it would read a protected file below its root. Like ripgrep, it is taken to read dot-files,
 * to skip what git ignores inside a repository, and to read anything a glob names even when
 * ignored; a file counts as skipped only where git's answer is certainly ripgrep's too (see
 * `skippedByIgnores`). Dependency folders are walked only when the search may enter them.
 * Contract: the root itself is decided elsewhere (a read of it); fails closed — a tree too large to
 * walk, an answer git cannot give, or globs that take longer than the glob budget to match, refuses.
 */
export function checkTreeSearch(ctx: PolicyContext, search: TreeSearch, links?: HardLinks): Decision {
  try {
    return withGlobBudget(() => decideTreeSearch(ctx, search, links));
  } catch (error) {
    if (!(error instanceof GlobTooSlow)) throw error;
    const subject = `${search.subject} of ${showPath(search.root)}`;
    return deny({ subject, why: error.message, rule: "glob too slow" });
  }
}

function decideTreeSearch(ctx: PolicyContext, search: TreeSearch, links: HardLinks | undefined): Decision {
  const real = ctx.fs.realpath(search.root);
  if (real === undefined || ctx.fs.lstat(real)?.isDirectory !== true) return allow();
  const subject = `${search.subject} of ${showPath(search.root)}`;
  const tooMany = () => {
    const why = `it holds more than ${MAX_SEARCHED_ENTRIES} entries, too many to check for protected files; give it a narrower path`;
    return deny({ subject, why, rule: "search of a tree" });
  };
  const walk: Walk = { found: [], rgIgnore: false, gitignores: [], nested: [], dependencies: [], seen: 0 };
  if (!walkBelow(ctx, real, links, walk, false)) return tooMany();
  const globs = positiveGlobs(search.globs ?? []);
  const named = (p: Entry) => globs.some((g) => globMayName(g, path.relative(real, p.path)));
  // A dependency folder is searched unless git ignores it and no glob names it: then walk it too.
  if (walk.dependencies.length > 0) {
    const { skipped } = skippedByIgnores(ctx, real, walk, walk.dependencies);
    for (const folder of walk.dependencies) {
      if (named(folder) || !skipped.has(relativeOf(real, folder))) {
        if (!walkBelow(ctx, folder.path, links, walk, true)) return tooMany();
      }
    }
  }
  if (walk.found.length === 0) return allow();
  const { skipped, doubt } = skippedByIgnores(
    ctx,
    real,
    walk,
    walk.found.filter((p) => !named(p)),
  );
  const searched = walk.found.find((p) => named(p) || !skipped.has(relativeOf(real, p)));
  if (searched === undefined) return allow();
  const how = named(searched) ? "its glob names it" : doubt;
  const why = `it would search ${showPath(path.relative(real, searched.path))} (${how}), and ${searched.rule.why}; search a folder that does not hold it`;
  return deny({ subject, why, rule: searched.rule.label });
}
