import type { DenyRule } from "../rules/deny-rule.ts";
import { literalScreen } from "./literal-screen.ts";
import { matchView } from "./match-view.ts";
import type { PolicyContext } from "./policy-context.ts";

/** Entries one memo keeps before it starts afresh (a walk of a huge tree must not grow it forever). */
const MEMO_LIMIT = 8192;

/** Per workspace-root list, per rule list: spelling → index of the first rule that denies it (-1: none). */
const memos = new WeakMap<object, WeakMap<readonly DenyRule[], Map<string, number>>>();

function memoOf(ctx: PolicyContext, rules: readonly DenyRule[]): Map<string, number> {
  let byRules = memos.get(ctx.roots);
  if (!byRules) {
    byRules = new WeakMap();
    memos.set(ctx.roots, byRules);
  }
  let memo = byRules.get(rules);
  if (!memo) {
    memo = new Map();
    byRules.set(rules, memo);
  }
  return memo;
}

/**
 * The first of `rules` that denies the absolute spelling `base`, or undefined.
 * Why a memo is safe: which rule matches is a pure function of the spelling's text, the policy's
 * roots, project directory and case folding, and the compiled rules, all fixed when a policy is
 * created (a new policy compiles new rule lists, so it never sees another policy's entries). What
 * the filesystem says (symlinks, the real path, hard links, existence) is never memoised: callers
 * resolve the real spellings afresh on every check and look each of them up here.
 * Contract: the same answer as testing `rule.matches(matchView(ctx, base))` over `rules` in order.
 */
export function firstDenyingRule(ctx: PolicyContext, rules: readonly DenyRule[], base: string): DenyRule | undefined {
  const memo = memoOf(ctx, rules);
  const key = `${ctx.folding ? "f" : "c"}\u0000${ctx.cwd}\u0000${base}`;
  let index = memo.get(key);
  if (index === undefined) {
    const view = matchView(ctx, base);
    const screen = literalScreen(rules);
    // Usually no rule's required text is in the path: only the rules that require none are tried.
    index = screen.mayMatch(view)
      ? rules.findIndex((rule) => rule.matches(view))
      : (screen.open.find((i) => rules[i]?.matches(view) === true) ?? -1);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, index);
  }
  return index < 0 ? undefined : rules[index];
}
