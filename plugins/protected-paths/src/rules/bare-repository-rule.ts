import type { DenyRule, MatchView } from "./deny-rule.ts";

const WHY =
  "a file named HEAD (with objects/ and refs/ beside it) makes its folder a git repository, whose config git then runs (fsmonitor, hooks, filters) for any command started there; only .git may hold one";

function named(spelling: string, folding: boolean): boolean {
  const segments = (folding ? spelling.toLowerCase() : spelling).split("/");
  return segments.at(-1) === (folding ? "head" : "HEAD") && !segments.includes(".git");
}

/**
 * The write rule against planted repositories: git takes any folder holding `HEAD`, `objects/`
 * and `refs/` for a (bare) repository, and runs that folder's `config` — no `.git` name needed. A
 * file named `HEAD` outside `.git` is refused, so no such folder can be completed.
 * Contract: matches every spelling whose last segment is `HEAD` and none of whose segments is
 * `.git` (case-insensitively when `folding`); protects nothing below it.
 */
export function bareRepositoryRule(folding: boolean): DenyRule {
  const matches = (view: MatchView) =>
    (view.relatives.length > 0 ? view.relatives : [view.absolute]).some((s) => named(s, folding));
  return Object.freeze({
    body: "**/HEAD",
    anchor: "any-depth" as const,
    label: "default denyWrite HEAD outside .git",
    why: WHY,
    matches,
    subtree: false,
    matchesRoot: matches,
    nameMayMatch: (name: string) => (folding ? name.toLowerCase() === "head" : name === "HEAD"),
    reachesThrough: () => false,
  });
}
