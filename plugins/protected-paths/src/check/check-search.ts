import path from "node:path";
import { minimatch } from "minimatch";
import { allow, type Decision, deny } from "../decision.ts";
import { showPath } from "../paths/path-text.ts";
import type { DenyRule } from "../rules/deny-rule.ts";
import { DEPENDENCY_DIRS } from "../scan/deny-index.ts";
import { gitIgnored } from "../scan/git-ignored.ts";
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

/** How many entries a searched tree may have before the check gives up and refuses. */
export const MAX_SEARCHED_ENTRIES = 100_000;

/** Files that tell ripgrep what to skip or search besides `.gitignore`: the agent can write them. */
const RG_IGNORE_FILES = new Set([".ignore", ".rgignore"]);

interface Protected {
  path: string;
  rule: DenyRule;
  folder: boolean;
}

type Walk = { found: Protected[]; ignoreFiles: boolean } | { tooMany: true };

/**
 * Every entry below `dir` that a read rule denies (a denied folder is reported, not entered),
 * without following links (ripgrep does not) and without entering dependency folders (what a
 * package manager owns; see `DEPENDENCY_DIRS`).
 */
function protectedBelow(ctx: PolicyContext, dir: string): Walk {
  const found: Protected[] = [];
  let ignoreFiles = false;
  let seen = 0;
  const queue = [dir];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const entry of ctx.fs.readdir(next) ?? []) {
      seen += 1;
      if (seen > MAX_SEARCHED_ENTRIES) return { tooMany: true };
      if (RG_IGNORE_FILES.has(entry.name)) ignoreFiles = true;
      if (entry.isDirectory && DEPENDENCY_DIRS.has(entry.name)) continue;
      const full = path.join(next, entry.name);
      const rule = ctx.rules.read.find((r) => r.matches(matchView(ctx, full)));
      const folder = entry.isDirectory && !entry.isSymbolicLink;
      if (rule) found.push({ path: full, rule, folder });
      else if (folder) queue.push(full);
    }
  }
  return { found, ignoreFiles };
}

/** True when an ignore file of ripgrep's own sits in `dir` or a folder above it. */
function ignoreFileAbove(ctx: PolicyContext, dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    for (const name of RG_IGNORE_FILES) if (ctx.fs.lstat(path.join(at, name)) !== undefined) return true;
    if (path.dirname(at) === at) return false;
  }
}

/**
 * True unless the glob certainly does not name `rel` (a file, or anything below a folder): ripgrep
 * matches a glob without a slash against every base name, and one with a slash against the path.
 */
function globMayName(glob: string, rel: string, folder: boolean): boolean {
  if (folder || /[\\]/.test(glob)) return true;
  const options = { dot: true, nocase: true, matchBase: !glob.includes("/") };
  const bare = glob.startsWith("/") ? glob.slice(1) : glob;
  return minimatch(rel, bare, options) || minimatch(rel, `**/${bare}`, options);
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

/**
 * Decides a search of a whole tree by a tool that runs unconfined (Claude Code's `Grep`): refused
 * when it would read a protected file below its root. Like ripgrep, it is taken to read dot-files,
 * to skip what git ignores inside a repository, and to read anything a glob names even when
 * ignored. A file counts as skipped only when the host's git says it is ignored by a plain pattern
 * and no `.ignore`/`.rgignore` (which can list it back) is in the tree or above it.
 * Contract: the root itself is decided elsewhere (a read of it); fails closed — a tree too large to
 * walk, or an answer git cannot give, refuses.
 */
export function checkTreeSearch(ctx: PolicyContext, search: TreeSearch): Decision {
  const real = ctx.fs.realpath(search.root);
  if (real === undefined || ctx.fs.lstat(real)?.isDirectory !== true) return allow();
  const subject = `${search.subject} of ${showPath(search.root)}`;
  const walk = protectedBelow(ctx, real);
  if ("tooMany" in walk) {
    const why = `it holds more than ${MAX_SEARCHED_ENTRIES} entries, too many to check for protected files; give it a narrower path`;
    return deny({ subject, why, rule: "search of a tree" });
  }
  if (walk.found.length === 0) return allow();
  const globs = positiveGlobs(search.globs ?? []);
  const named = (p: Protected) => globs.some((g) => globMayName(g, path.relative(real, p.path), p.folder));
  const listed = walk.ignoreFiles || ignoreFileAbove(ctx, real);
  const unnamed = walk.found.filter((p) => !named(p));
  const ignored = listed
    ? new Set<string>()
    : gitIgnored(
        real,
        unnamed.map((p) => path.relative(real, p.path)),
      );
  const searched = walk.found.find((p) => named(p) || !ignored.has(path.relative(real, p.path)));
  if (searched === undefined) return allow();
  const rel = path.relative(real, searched.path);
  const how = named(searched)
    ? "its glob names it"
    : listed
      ? "an .ignore or .rgignore file can list it back"
      : "git does not ignore it";
  const why = `it would search ${showPath(rel)} (${how}), and ${searched.rule.why}; search a folder that does not hold it`;
  return deny({ subject, why, rule: searched.rule.label });
}
