import path from "node:path";
import type { DenyRule } from "../rules/deny-rule.ts";
import { runHostGit } from "../scan/host-git.ts";
import { matchView } from "./match-view.ts";
import type { PolicyContext } from "./policy-context.ts";

/** Tracked entries looked at before the check gives up and refuses. */
export const MAX_TRACKED_ENTRIES = 500_000;

/** What the check of a repository's tracked files found. */
export type TrackedResult =
  | { found: string; rule: DenyRule }
  | { unknown: string }
  /** The repository's top folder, above `dir`: its whole tree is read (checked like `git add .` there). */
  | { below: string }
  | undefined;

/**
 * The read rule that denies the entry `at` named `name`, tested as the deny index tests a walk's
 * entries: a rule is matched only when the entry's name may match it (a repository tracks many
 * files, and most names match no rule).
 */
function denying(
  ctx: PolicyContext,
  byName: Map<string, readonly DenyRule[]>,
  name: string,
  at: string,
): DenyRule | undefined {
  // Names repeat (index.ts, src): the rules a name may match are found once per name.
  let rules = byName.get(name);
  if (rules === undefined) {
    const folded = ctx.folding ? name.normalize("NFC").toLowerCase() : name.normalize("NFC");
    rules = ctx.rules.read.filter((rule) => rule.nameMayMatch(folded));
    byName.set(name, rules);
  }
  if (rules.length === 0) return undefined;
  const view = matchView(ctx, at);
  return rules.find((rule) => (rule.subtree ? rule.matchesRoot(view) : rule.matches(view)));
}

/**
 * The first file tracked by the repository `dir` lies in (its submodules included) that read rules
 * deny, itself or through a folder above it: what `git diff`, `git status -vv` and `git commit -a`
 * read from the working tree and print or copy into a commit. `undefined` when nothing tracked is
 * denied, or `dir` is in no repository (git then reads nothing of the working tree).
 * With `everything` (`git add -A` run below the repository's top folder), the top folder is
 * returned for a check of its whole tree instead.
 * Contract: asks the host's git (`hostGit`, no GIT_* variables, no fsmonitor); an answer it cannot
 * get or read is `{ unknown }` (fail closed); more than `MAX_TRACKED_ENTRIES` entries too.
 */
export function trackedDenied(ctx: PolicyContext, dir: string, everything = false): TrackedResult {
  const top = runHostGit(["rev-parse", "--show-toplevel"], { cwd: dir });
  if (top === undefined) return undefined;
  if (top.status !== 0) {
    if (/not a git repository/i.test(top.stderr ?? "")) return undefined;
    return { unknown: `git could not tell which repository it is in (${(top.stderr ?? "").trim().split("\n")[0]})` };
  }
  const root = top.stdout.replace(/\n$/, "");
  if (everything && path.resolve(dir) !== root) return { below: root };
  const listed = runHostGit(["ls-files", "-z", "--cached", "--recurse-submodules"], { cwd: root });
  if (listed?.status !== 0 || typeof listed.stdout !== "string") {
    return { unknown: `git could not list the tracked files (${(listed?.stderr ?? "").trim().split("\n")[0]})` };
  }
  const entries = listed.stdout.split("\0").filter((e) => e !== "");
  if (entries.length > MAX_TRACKED_ENTRIES) {
    return { unknown: `the repository tracks more than ${MAX_TRACKED_ENTRIES} files, too many to check` };
  }
  // Each folder once, however many tracked files it holds.
  const folders = new Set<string>();
  const byName = new Map<string, readonly DenyRule[]>();
  for (const entry of entries) {
    // The file and each folder on its way: a read rule on a folder denies what it holds.
    const parts = entry.split("/");
    for (let i = 1; i <= parts.length; i += 1) {
      const at = path.join(root, ...parts.slice(0, i));
      if (i < parts.length) {
        if (folders.has(at)) continue;
        folders.add(at);
      }
      const rule = denying(ctx, byName, parts[i - 1] as string, at);
      if (rule) return { found: at, rule };
    }
  }
  return undefined;
}
