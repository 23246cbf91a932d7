import path from "node:path";
import type { CheckedFileIdentity } from "@gatehouse/sdk";
import { checkPathText, showPath } from "../paths/path-text.ts";
import { type PathViews, type Spelling, spellPath } from "../paths/spellings.ts";
import { containsRoot, insideWorkspace } from "../paths/workspace.ts";
import type { DenyRule } from "../rules/deny-rule.ts";
import { firstDenyingRule } from "./first-denying-rule.ts";
import { matchView } from "./match-view.ts";
import type { Access, PolicyContext } from "./policy-context.ts";

/** The outcome of checking one path, before it is worded for a particular caller. */
export type PathVerdict =
  | {
      ok: true;
      views: PathViews;
      /** What the real path (`views.reals[0]`) was when it was checked, when it was looked at. */
      identity?: CheckedFileIdentity;
    }
  | { ok: false; rule: string; why: string; spellings: Spelling[]; views?: PathViews };

/** Options of `evaluatePath`. */
export interface EvaluateOptions {
  /** Relative paths resolve against it (default: the policy's cwd). */
  cwd?: string;
  /** Expand `~` and `~/x` (default true, as the built-ins do). */
  expandHome?: boolean;
  /**
   * Only the path text and the deny rules decide (the bash pre-check of sandbox mode, where the
   * sandbox enforces the workspace boundary and hard links cannot reach protected files).
   */
  rulesOnly?: boolean;
  /**
   * The write puts a symbolic link, or a folder whose contents come from elsewhere, at the path
   * (`ln -s`, `mv dir`, `cp -r dir`): refused too where a write rule protects something inside it.
   */
  through?: boolean;
}

function resolvesTo(views: PathViews, base: string): string {
  return base === views.absolute ? "" : `it resolves to ${showPath(base)}, and `;
}

function workspaceList(ctx: PolicyContext): string {
  const shown = ctx.roots.slice(0, 3).map((r) => r.absolute);
  return `${shown.join(", ")}${ctx.roots.length > 3 ? ", …" : ""}`;
}

/**
 * Checks one read or write of a path against the policy.
 * Contract: in this order — the path text (type, empty, NUL, control characters), symlink cycles,
 * the workspace root itself (writes), deny rules over the normalised and every real spelling,
 * the workspace boundary over every real spelling, and hard links (writes to an existing file
 * with more than one link; reads of a file that is the same file, device and inode, as one a read
 * rule denies). The first failing check decides. `rulesOnly` stops after the deny rules.
 */
export function evaluatePath(
  ctx: PolicyContext,
  access: Access,
  input: unknown,
  options: EvaluateOptions = {},
): PathVerdict {
  const problem = checkPathText(input);
  if (problem) {
    const spellings: Spelling[] = typeof input === "string" ? [{ form: "given", path: input }] : [];
    return { ok: false, rule: problem.rule, why: problem.why, spellings };
  }
  const views = spellPath(input as string, {
    cwd: options.cwd ?? ctx.cwd,
    home: ctx.home,
    expandHome: options.expandHome ?? true,
    folding: ctx.folding,
    fs: ctx.fs,
  });
  const refuse = (rule: string, why: string): PathVerdict => ({
    ok: false,
    rule,
    why,
    spellings: views.spellings,
    views,
  });
  if (views.loop) return refuse("symlink loop", "its symlinks do not resolve (a cycle or too many levels)");
  // The normalised spelling, then every real one that differs from it (usually the one real path is it).
  const bases =
    views.reals[0] === views.absolute
      ? views.reals
      : [views.absolute, ...views.reals.filter((r) => r !== views.absolute)];

  const rulesOnly = options.rulesOnly === true;
  if (access === "write" && !rulesOnly) {
    const root = bases.find((base) => containsRoot(ctx.roots, base));
    if (root !== undefined)
      return refuse("workspace root", `${resolvesTo(views, root)}it is the workspace root or contains it`);
    // The anchors too: replacing the project directory (or a level's root) while the workspace is
    // narrowed below it would carry away what the rules anchored there protect.
    const anchor = bases.find((base) => containsRoot(ctx.anchors, base));
    if (anchor !== undefined)
      return refuse(
        "workspace root",
        `${resolvesTo(views, anchor)}it is the project directory or a configured workspace root, or contains one`,
      );
  }

  const rules = access === "write" ? ctx.rules.write : ctx.rules.read;
  // Rules in order, each over every spelling: the earliest rule that denies any spelling decides.
  let denied: { rule: DenyRule; base: string; at: number } | undefined;
  for (const base of bases) {
    const rule = firstDenyingRule(ctx, rules, base);
    if (!rule) continue;
    const at = rules.indexOf(rule);
    if (!denied || at < denied.at) denied = { rule, base, at };
  }
  if (denied) return refuse(denied.rule.label, `${resolvesTo(views, denied.base)}${denied.rule.why}`);
  if (access === "write" && options.through === true) {
    for (const base of bases) {
      const view = matchView(ctx, base);
      // The sandbox keeps what lies outside the workspace (`~/.gitconfig`) read-only by itself.
      const rule = rules.find((r) => !(rulesOnly && r.absolute !== undefined) && r.reachesThrough(view));
      if (rule) {
        const why = `a link or a folder put there would hold what ${rule.label} protects inside it, and ${rule.why}`;
        return refuse(rule.label, `${resolvesTo(views, base)}${why}`);
      }
    }
  }

  if (rulesOnly) return { ok: true, views };

  if (!ctx.allowOutside[access]) {
    const outside = views.reals.find((real) => !insideWorkspace(ctx.roots, real));
    if (outside !== undefined) {
      const where = outside === views.absolute ? "it is" : `it resolves to ${showPath(outside)}, which is`;
      return refuse(
        "outside workspace",
        `${where} outside the workspace (${workspaceList(ctx)}); ${access === "write" ? "write" : "read"} inside the workspace instead`,
      );
    }
  }

  let identity: CheckedFileIdentity | undefined;
  for (let i = 0; i < views.reals.length; i++) {
    const real = views.reals[i] as string;
    const info = ctx.fs.lstat(real);
    if (i === 0) identity = info ? { dev: info.dev, ino: info.ino } : "absent";
    if (info === undefined && access === "write") {
      const created = createdFolderRule(ctx, rules, real);
      if (created === "too deep") {
        const why = `${resolvesTo(views, real)}it would create more than ${MAX_CREATED_FOLDERS} folders, too many to check for one the policy protects (a new .git); create them in steps`;
        return refuse("too many new folders", why);
      }
      if (created) {
        return refuse(
          created.rule.label,
          `${resolvesTo(views, real)}it would create the folder ${showPath(created.dir)}, and ${created.rule.why}`,
        );
      }
    }
    if (!info?.isFile || info.nlink < 2) continue;
    if (access === "write") {
      return refuse(
        "hard link",
        `the file has ${info.nlink} hard links and may be an alias of a protected file; write a new file under another name instead`,
      );
    }
    // A read of another name of a protected file is a read of that file.
    const alias = ctx.aliasOf?.(info);
    if (alias) {
      return refuse("hard link", `it is the same file as ${showPath(alias.path)}, and ${alias.rule.why}`);
    }
  }
  return identity === undefined ? { ok: true, views } : { ok: true, views, identity };
}

/** How far up a write's missing folders are looked for (a write that would create more is refused). */
const MAX_CREATED_FOLDERS = 64;

/**
 * The first rule denying a folder a write to the absent `real` would create (the write tool makes
 * missing parents): `sub/.git/HEAD` creates `sub/.git`, a repository no check of the file saw.
 * Contract: walks up from the parent of `real` while nothing exists there; "too deep" when more
 * than `MAX_CREATED_FOLDERS` folders are missing (a write 70 levels below a new `sub/.git` made
 * that repository unchecked), else checks each missing folder.
 */
function createdFolderRule(
  ctx: PolicyContext,
  rules: readonly DenyRule[],
  real: string,
): { rule: DenyRule; dir: string } | "too deep" | undefined {
  const missing: string[] = [];
  for (let dir = path.dirname(real); dir !== path.dirname(dir) && ctx.fs.lstat(dir) === undefined; ) {
    if (missing.length === MAX_CREATED_FOLDERS) return "too deep";
    missing.push(dir);
    dir = path.dirname(dir);
  }
  for (const dir of missing) {
    const rule = firstDenyingRule(ctx, rules, dir);
    if (rule) return { rule, dir };
  }
  return undefined;
}
