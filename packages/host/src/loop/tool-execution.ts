import type { AgentEvent, ToolContext, ToolOutcome, ToolProgress, ToolResult } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import { progressProblem, toolResultProblem } from "../common/tool-result-shape.ts";
import type { PreparedCall } from "./tool-preflight.ts";
import { errorResult, type FinalizedCall } from "./tool-results.ts";
import type { FinalResult, LoopConfig, TurnState } from "./types.ts";

/**
 * Stage 8–9: runs the tool with its frozen args, signal and a progress callback.
 * Contract: never throws. Progress emitted after the tool settles is dropped, and so is progress that
 * is not `{ content, details? }` or cannot be written as JSON (logged once per call, naming the
 * tool); progress already emitted is awaited before this resolves, so updates always precede the call's end.
 */
async function execute(call: PreparedCall, config: LoopConfig, signal: AbortSignal): Promise<FinalResult> {
  const { toolCall, tool, args } = call;
  let accepting = true;
  let pending: Promise<void>[] | undefined;
  let warned = false;
  const onUpdate = (partialResult: ToolProgress): void => {
    if (!accepting) return;
    const problem = progressProblem(partialResult);
    if (problem !== undefined) {
      // Progress is only shown, never sent to the model: a malformed update is dropped (the call
      // goes on), and said once per call, naming the tool, instead of reaching every subscriber.
      if (!warned)
        config.logger.warn(
          { tool: tool.name, toolCallId: toolCall.id },
          `Tool ${tool.name} reported an invalid progress update, dropped: ${problem}.`,
        );
      warned = true;
      return;
    }
    const event: AgentEvent = {
      type: "tool_execution_update",
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      args,
      partialResult,
    };
    const emitted = config.emit(event);
    if (!isPromiseLike(emitted)) return;
    pending ??= [];
    pending.push(Promise.resolve(emitted).catch(() => undefined));
  };
  let final: FinalResult;
  try {
    const ctx: ToolContext = { toolCallId: toolCall.id, signal, onUpdate, cwd: config.cwd, logger: config.logger };
    if (call.pins) ctx.pinnedTargets = call.pins;
    if (call.canRead) ctx.canRead = call.canRead;
    if (call.sandbox) ctx.sandbox = call.sandbox;
    const returned: unknown = await tool.execute(args, ctx);
    const problem = toolResultProblem(returned);
    const result = returned as ToolResult;
    final =
      problem === undefined
        ? { result, isError: result.isError === true }
        : { result: errorResult(`Tool ${tool.name} returned an invalid result: ${problem}.`), isError: true };
  } catch (error) {
    final = { result: errorResult(thrownText(tool.name, error)), isError: true };
  }
  accepting = false;
  if (pending) await Promise.all(pending);
  return final;
}

/**
 * The error text the model gets for what a tool threw: the error's message, or — when that says
 * nothing (`throw new Error()`, `throw ""`, `throw undefined`) — a sentence naming the tool.
 */
function thrownText(name: string, error: unknown): string {
  if (error === undefined || error === null)
    return `Tool ${name} failed: it threw ${String(error)} instead of an Error.`;
  const message = errorMessage(error);
  return message.trim() ? message : `Tool ${name} failed with an error that has no message.`;
}

function outcomeOf(isError: boolean, signal: AbortSignal): ToolOutcome {
  if (!isError) return "executed";
  return signal.aborted ? "aborted" : "failed";
}

/** Stages 8–10 for one prepared call: execute, convert throws, apply `tool_result` hooks. */
export async function executeAndFinalize(
  call: PreparedCall,
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Promise<FinalizedCall> {
  let final = await execute(call, config, signal);
  if (turn.hooks) {
    try {
      const patched = turn.hooks.toolResult({
        toolCall: call.toolCall,
        input: call.args,
        result: final.result,
        isError: final.isError,
        signal,
      });
      final = isPromiseLike<FinalResult>(patched) ? await patched : patched;
    } catch (error) {
      final = { result: errorResult(`tool_result hooks failed: ${errorMessage(error)}`), isError: true };
    }
  }
  const { toolCall, args, effects } = call;
  // What the sandbox had to undo after the run makes the call blocked, whatever the tool reported.
  const undone = call.sandbox?.violations() ?? [];
  if (undone.length > 0) {
    const reason = undone.map((v) => v.reason).join(" ");
    const blockedBy = call.sandbox?.confinedBy;
    return { toolCall, args, result: final.result, effects, isError: true, outcome: "blocked", blockedBy, reason };
  }
  return {
    toolCall,
    args,
    result: final.result,
    effects,
    isError: final.isError,
    outcome: outcomeOf(final.isError, signal),
  };
}
