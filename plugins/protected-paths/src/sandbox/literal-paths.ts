import path from "node:path";
import type { DenyRule } from "../rules/deny-rule.ts";

/** Characters that make a pattern more than one literal path. */
const MAGIC = /[*?[\]{}()!+@\\]/;

/**
 * The fixed paths write rules name: an absolute rule's path, and each root-relative or any-depth
 * rule at the top of each root (`.envrc` → `ROOT/.envrc`, `.claude/settings.local.json`, `.git/hooks`
 * for `.git/hooks/**`). A rule with a glob in what it names gives none.
 * Contract: what a review that could not walk the tree still takes out; never touches the filesystem.
 */
export function literalPaths(rules: readonly DenyRule[], roots: readonly string[]): { path: string; rule: DenyRule }[] {
  const out: { path: string; rule: DenyRule }[] = [];
  const seen = new Set<string>();
  const add = (p: string, rule: DenyRule) => {
    if (seen.has(p)) return;
    seen.add(p);
    out.push({ path: p, rule });
  };
  for (const rule of rules) {
    const named = rule.subtree ? rule.body.replace(/\/\*\*$|\/+$/, "") : rule.body;
    if (rule.anchor === "absolute") {
      if (!MAGIC.test(named)) add(path.resolve(named), rule);
      continue;
    }
    const relative = rule.anchor === "any-depth" ? named.replace(/^\*\*\//, "") : named;
    if (relative === "" || MAGIC.test(relative)) continue;
    for (const root of roots) add(path.join(root, relative), rule);
  }
  return out;
}
