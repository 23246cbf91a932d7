import type { Policy } from "@gatehouse/protected-paths/decide";
import type { MappedCall } from "./agent-tools.ts";
import type { Verdict } from "./hook-finish.ts";

/**
 * A whole-tree content search (Claude Code's `Grep`) decided by what it would read below its root:
 * the agent's tool has no read filter, so a protected file it does not skip is a read of it.
 * Contract: `undefined` when the call is no such search or the policy lets it read everything it would.
 */
export function searchVerdict(mapped: MappedCall, policy: Policy, toolName: string): Verdict | undefined {
  if (mapped.search === undefined) return undefined;
  const decision = policy.checkSearch({ root: mapped.search.root, globs: mapped.search.globs, subject: toolName });
  return decision.allow ? undefined : { blocked: true, blockedBy: "protected-paths", reason: decision.reason };
}
