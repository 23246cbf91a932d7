import { homedir } from "node:os";
import { defineExtension, type ExtensionDefinition, type GuardedToolCallEvent, type ToolEffect } from "@gatehouse/sdk";
import { CheckMemo } from "./check/check-memo.ts";
import { checkCall } from "./check-call.ts";
import type { Decision } from "./decision.ts";
import { policyCompiler } from "./policy.ts";
import { readProtectedPathsConfig } from "./read-config.ts";

/** An allowing decision. */
type AllowedDecision = Extract<Decision, { allow: true }>;

/**
 * Pins the real file an allowed read or write resolved to, so the host's file tools refuse to
 * act if a symlink is swapped in between this check and their use (time-of-check to time-of-use).
 */
function pinTarget(event: GuardedToolCallEvent, effect: ToolEffect, allowed: AllowedDecision): void {
  if (effect.kind !== "write" && effect.kind !== "read") return;
  const absolute = allowed.spellings.find((s) => s.form === "absolute")?.path;
  const real = allowed.spellings.find((s) => s.form === "real")?.path;
  // With what the check saw there: the tool must find that very file (not just that path).
  if (absolute && real) event.pin(absolute, real, allowed.identity);
}

/**
 * The `protected-paths` extension: one enforce-stage `tool_call` guard that checks every effect of
 * every tool (built-in, overriding, custom) against the configured policy, confines every call
 * with an `exec` effect to a sandbox built from the same policy (mode "sandbox") and gives every
 * call a read filter, so grep, find and ls withhold what the policy denies.
 * Contract: a bad configuration is a load error naming the field; a refused call is blocked with
 * the decision's one-sentence reason; nothing is ever modified by the check itself.
 */
export const protectedPaths: ExtensionDefinition = defineExtension({
  name: "protected-paths",
  setup(api) {
    const config = readProtectedPathsConfig((schema, options) => api.config(schema, options));
    // Rebuilt when the reserved paths change (an extension loaded later reserved its log or key).
    // `config` is already parsed (defaults in): compiled as is, never parsed again per rebuild.
    const compile = policyCompiler(config, { cwd: api.cwd, home: homedir(), gatehouseHome: api.gatehouseHome });
    let reserved = api.reservedPaths();
    let policy = compile(reserved);
    const current = () => {
      const now = api.reservedPaths();
      if (now !== reserved) {
        reserved = now;
        policy = compile(reserved);
      }
      return policy;
    };
    const quarantineDir = () => api.privateDir("quarantine");
    const memo = new CheckMemo();
    api.on(
      "tool_call",
      (event) => {
        const policy = current();
        const onAllowed = (effect: ToolEffect, allowed: AllowedDecision) => pinTarget(event, effect, allowed);
        const check = (effect: ToolEffect) => memo.check(policy, effect);
        const decision = checkCall(event.effects, policy, { toolName: event.toolName, onAllowed, check });
        if (!decision.allow) {
          api.logger.info(
            { toolCallId: event.toolCallId, toolName: event.toolName, rule: decision.rule },
            "call refused",
          );
          return { block: true, reason: decision.reason };
        }
        event.restrictReads(policy.readFilter());
        const runsCommands = event.effects?.some((effect) => effect.kind === "exec") === true;
        if (runsCommands && policy.settings.bash === "sandbox") event.confine(policy.sandboxProfile({ quarantineDir }));
        return undefined;
      },
      { stage: "enforce" },
    );
  },
});
