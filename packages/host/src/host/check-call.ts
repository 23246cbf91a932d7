import type { ToolCall } from "@gatehouse/sdk";
import { normaliseEffects } from "../hooks/effect-shape.ts";
import { preflight } from "../loop/tool-preflight.ts";
import type { TurnState } from "../loop/types.ts";
import { validateArguments } from "../loop/validate-arguments.ts";
import type { CheckResult } from "./types.ts";

/**
 * Stages 4–7 for one hypothetical call on the current tool set and hooks.
 * Contract: never executes the tool and emits no events; effects are reported even when no guard
 * is loaded (computed from the validated input), so a caller can explain what the call touches.
 */
export async function checkCall(
  turn: TurnState,
  toolName: string,
  args: Record<string, unknown>,
): Promise<CheckResult> {
  const toolCall: ToolCall = { type: "toolCall", id: "policy-check", name: toolName, arguments: args };
  const pre = await preflight(toolCall, turn, new AbortController().signal);
  if (pre.kind === "prepared") {
    const input = pre.call.args as Record<string, unknown>;
    const allowed: CheckResult = {
      outcome: "allowed",
      input,
      effects: pre.call.effects ?? effectsOf(turn, toolName, input),
    };
    if (pre.call.sandbox) allowed.confinedBy = pre.call.sandbox.confinedBy;
    return allowed;
  }
  const { call } = pre;
  const outcome =
    call.outcome === "blocked" || call.outcome === "invalid" || call.outcome === "unknown" ? call.outcome : "blocked";
  const result: CheckResult = { outcome, input: call.args, effects: call.effects };
  if (call.blockedBy !== undefined) result.blockedBy = call.blockedBy;
  result.reason = call.reason ?? (call.result.content[0] as { text?: string } | undefined)?.text ?? outcome;
  if (result.effects === undefined && outcome !== "unknown") result.effects = effectsOf(turn, toolName, args);
  return result;
}

function effectsOf(turn: TurnState, toolName: string, args: unknown) {
  const tool = turn.tools.get(toolName);
  const valid = tool ? validateArguments(tool, args) : undefined;
  if (!tool?.effects || !valid?.ok) return undefined;
  try {
    const shape = normaliseEffects(tool.effects(valid.value));
    return "effects" in shape ? shape.effects : undefined;
  } catch {
    return undefined;
  }
}
