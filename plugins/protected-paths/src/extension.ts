import { homedir } from "node:os";
import { defineExtension, type ExtensionDefinition, type GuardedToolCallEvent } from "@gatehouse/sdk";
import { checkCall } from "./check-call.ts";
import { protectedPathsConfigSchema, protectedPathsMergeRules } from "./config.ts";
import { createPolicy, type Policy } from "./policy.ts";

/**
 * Pins the real file each allowed write resolved to, so the host's write/edit refuse to write if a
 * symlink is swapped in between this check and the write (time-of-check to time-of-use).
 */
function pinWrites(event: GuardedToolCallEvent, policy: Policy): void {
  for (const effect of event.effects ?? []) {
    if (effect.kind !== "write") continue;
    const { spellings } = policy.check(effect);
    const absolute = spellings.find((s) => s.form === "absolute")?.path;
    const real = spellings.find((s) => s.form === "real")?.path;
    if (absolute && real) event.pin(absolute, real);
  }
}

/**
 * The `protected-paths` extension: one enforce-stage `tool_call` guard that checks every effect of
 * every tool (built-in, overriding, custom) against the configured policy.
 * Contract: a bad configuration is a load error naming the field; a refused call is blocked with
 * the decision's one-sentence reason; nothing is ever modified.
 */
export const protectedPaths: ExtensionDefinition = defineExtension({
  name: "protected-paths",
  setup(api) {
    const config = api.config(protectedPathsConfigSchema, { merge: protectedPathsMergeRules });
    const policy = createPolicy(config, { cwd: api.cwd, home: homedir() });
    api.on(
      "tool_call",
      (event) => {
        const decision = checkCall(event.effects, policy, { toolName: event.toolName });
        if (decision.allow) {
          pinWrites(event, policy);
          return undefined;
        }
        api.logger.info(
          { toolCallId: event.toolCallId, toolName: event.toolName, rule: decision.rule },
          "call refused",
        );
        return { block: true, reason: decision.reason };
      },
      { stage: "enforce" },
    );
  },
});
