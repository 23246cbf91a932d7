import type { ToolEffect } from "@gatehouse/sdk";
import { allow, type Decision, deny } from "./decision.ts";
import { showPath } from "./paths/path-text.ts";
import type { Spelling } from "./paths/spellings.ts";
import type { Policy } from "./policy.ts";

/**
 * Decides a whole tool call from its declared effects.
 * Contract: the first denied effect decides (an `edit`'s write counts as a read of the file too); an
 * allowed call lists the spellings of every effect.
 * `undefined` effects (the tool declares none) follow `undeclaredEffects`; effects that are not an
 * array are refused.
 */
export function checkCall(
  effects: readonly ToolEffect[] | undefined,
  policy: Policy,
  options: {
    toolName?: string;
    /** Called with each allowed effect's decision (before the next effect is checked). */
    onAllowed?: (effect: ToolEffect, decision: Extract<Decision, { allow: true }>) => void;
    /** Decides one effect; default `policy.check` (the extension passes its `CheckMemo`). */
    check?: (effect: ToolEffect) => Decision;
  } = {},
): Decision {
  const check = options.check ?? policy.check;
  const subject = () => `Call to tool ${showPath(options.toolName ?? "?")}`;
  if (effects === undefined) {
    if (policy.settings.undeclaredEffects === "allow") return allow();
    const why = "it declares no effects, so the paths it touches cannot be checked; declare effects on the tool";
    return deny({ subject: subject(), why, rule: "undeclared effects" });
  }
  if (!Array.isArray(effects)) {
    return deny({
      subject: subject(),
      why: "its effects are not a list, so they cannot be checked",
      rule: "malformed effects",
    });
  }
  let first: Extract<Decision, { allow: true }> | undefined;
  const spellings: Spelling[] = [];
  for (const effect of effects) {
    const decision = check(effect);
    if (!decision.allow) return decision;
    // The built-in edit reads the file it writes (its errors and diff show what is there): a file
    // only reads are denied for must not be edited either.
    if (options.toolName === "edit" && effect.kind === "write") {
      const read = check({ kind: "read", path: effect.path });
      if (!read.allow) return read;
    }
    options.onAllowed?.(effect, decision);
    first ??= decision;
    spellings.push(...decision.spellings);
  }
  // One effect (the common case): its decision is the call's.
  return effects.length === 1 && first ? first : allow(spellings);
}
