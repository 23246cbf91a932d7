import type { AnyToolDefinition, ToolCall, ToolEffect } from "@gatehouse/sdk";
import { abortFlag } from "../common/abort-flag.ts";
import { deepFreeze } from "../common/deep-freeze.ts";
import { errorMessage } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import { type FinalizedCall, immediate } from "./tool-results.ts";
import type { ConfinedSandbox, PinIdentity, ToolCallVerdict, TurnState } from "./types.ts";
import { validateArguments } from "./validate-arguments.ts";

/** A call that passed stages 4–7 and may execute with its final, frozen input. */
export interface PreparedCall {
  toolCall: ToolCall;
  tool: AnyToolDefinition;
  args: Readonly<Record<string, unknown>>;
  /** The effects the guards saw, when they were computed. */
  effects?: readonly ToolEffect[] | undefined;
  /** Real paths the guards checked, handed to the tool as `ctx.pinnedTargets`. */
  pins?: ReadonlyMap<string, readonly string[]> | undefined;
  /** What the guards saw at those real paths (see `GuardPins`). */
  pinIdentities?: ReadonlyMap<string, PinIdentity> | undefined;
  /** The guards' read filter and sandbox, handed to the tool as `ctx.canRead` and `ctx.sandbox`. */
  canRead?: ((absolutePath: string) => boolean) | undefined;
  sandbox?: ConfinedSandbox | undefined;
}

/** The preflight answer: ready to execute, or already finalized as an immediate error. */
export type Preflight = { kind: "prepared"; call: PreparedCall } | { kind: "immediate"; call: FinalizedCall };

function unknownTool(toolCall: ToolCall, turn: TurnState): FinalizedCall {
  const names = turn.tools.list.map((t) => t.name).join(", ");
  return immediate(toolCall, "unknown", `Tool "${toolCall.name}" not found. Available tools: ${names || "none"}.`);
}

function fromVerdict(toolCall: ToolCall, tool: AnyToolDefinition, verdict: ToolCallVerdict): Preflight {
  if (verdict.action === "allow") {
    const { input: args, effects, pins, pinIdentities, canRead, sandbox } = verdict;
    const call: PreparedCall = { toolCall, tool, args, effects, pins, pinIdentities, canRead, sandbox };
    return { kind: "prepared", call };
  }
  const extra = { blockedBy: verdict.blockedBy, reason: verdict.reason };
  if (verdict.action === "block") {
    const args = verdict.input
      ? { ...extra, args: verdict.input as Record<string, unknown>, effects: verdict.effects }
      : extra;
    const call = immediate(toolCall, "blocked", verdict.reason, args);
    if (verdict.terminate === true) {
      // The result says so too, for views and the model: this refusal ends the run.
      call.halt = { by: verdict.blockedBy, reason: verdict.reason };
      call.result.terminate = true;
    }
    return { kind: "immediate", call };
  }
  return { kind: "immediate", call: immediate(toolCall, "invalid", verdict.reason, extra) };
}

/**
 * Stages 4–7 for one call: lookup, prepareArguments, validation, `tool_call` hooks; then `then`
 * (the caller's next step) on the outcome, in the same step when the hooks answer asynchronously.
 * Contract: never throws; every failure is an immediate finalized call.
 */
export function preflight<T = Preflight>(
  toolCall: ToolCall,
  turn: TurnState,
  signal: AbortSignal,
  then?: (pre: Preflight) => T | Promise<T>,
): T | Promise<T> {
  const done = then ?? ((pre: Preflight) => pre as T);
  if (abortFlag(signal).aborted) {
    return done({ kind: "immediate", call: immediate(toolCall, "aborted", "Tool call aborted before it ran.") });
  }
  const tool = turn.tools.get(toolCall.name);
  if (!tool) return done({ kind: "immediate", call: unknownTool(toolCall, turn) });

  let raw: unknown = toolCall.arguments;
  if (tool.prepareArguments) {
    try {
      raw = tool.prepareArguments(toolCall.arguments);
    } catch (error) {
      const text = `Invalid arguments for ${tool.name}: prepareArguments failed: ${errorMessage(error)}`;
      return done({ kind: "immediate", call: immediate(toolCall, "invalid", text) });
    }
  }
  const validation = validateArguments(tool, raw);
  if (!validation.ok) {
    const text = `Invalid arguments for ${tool.name}: ${validation.message}`;
    return done({ kind: "immediate", call: immediate(toolCall, "invalid", text) });
  }
  if (!turn.hooks) {
    return done({ kind: "prepared", call: { toolCall, tool, args: deepFreeze(validation.value) } });
  }
  const hooks = turn.hooks;
  let verdict: ToolCallVerdict | Promise<ToolCallVerdict>;
  try {
    verdict = hooks.toolCall({
      toolCall,
      tool,
      input: validation.value,
      validate: (input) => validateArguments(tool, input),
      signal,
    });
  } catch (error) {
    return done(hookFailure(toolCall, error));
  }
  if (isPromiseLike<ToolCallVerdict>(verdict)) {
    return verdict.then(
      (v) => done(fromVerdict(toolCall, tool, v)),
      (error) => done(hookFailure(toolCall, error)),
    );
  }
  return done(fromVerdict(toolCall, tool, verdict));
}

/** Fail closed: if the hook machinery itself breaks, the call does not run. */
function hookFailure(toolCall: ToolCall, error: unknown): Preflight {
  const reason = `Blocked: the tool_call hooks failed (${errorMessage(error)}).`;
  return { kind: "immediate", call: immediate(toolCall, "blocked", reason, { blockedBy: "gatehouse", reason }) };
}
