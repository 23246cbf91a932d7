import { compileDenyRule, type DenyRule } from "./deny-rule.ts";

/** The most rules kept; past it the oldest is dropped (a process compiling ever new patterns stays bounded). */
const MAX_SHARED_RULES = 2048;

const shared = new Map<string, DenyRule>();

/**
 * `compileDenyRule`, shared across the process: a rule is a pure function of its options, so every
 * policy that names the same pattern, label and reason with the same folding and home gets the same
 * frozen rule, with the globs it has compiled so far. A new host (or a policy rebuilt when an
 * extension reserves a path) then compiles none of the default rules again.
 * Contract: same result and errors as `compileDenyRule`; the rule returned is frozen.
 */
export function sharedDenyRule(options: Parameters<typeof compileDenyRule>[0]): DenyRule {
  const key = `${options.folding ? 1 : 0}${options.contents === true ? 1 : 0}\0${options.home}\0${options.pattern}\0${options.label}\0${options.why}`;
  const known = shared.get(key);
  if (known) return known;
  const rule = Object.freeze(compileDenyRule(options));
  if (shared.size >= MAX_SHARED_RULES) shared.delete(shared.keys().next().value as string);
  shared.set(key, rule);
  return rule;
}
