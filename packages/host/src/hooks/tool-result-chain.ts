import type { HandlerContext, ToolResult } from "@gatehouse/sdk";
import { AsyncSeriesWaterfallHook } from "tapable";
import type { FinalResult, ToolResultRequest } from "../loop/types.ts";
import type { ResultHandler } from "./registrations.ts";
import { runHandler } from "./run-handler.ts";
import type { StageOptions } from "./tool-call-stages.ts";

/** The value passed down the `tool_result` chain. */
export interface ResultState {
  request: ToolResultRequest;
  ctx: HandlerContext;
  result: ToolResult;
  isError: boolean;
}

/**
 * The `tool_result` chain: each handler sees the result as patched so far and may replace
 * content, details, isError or terminate, field by field (no deep merge).
 * Fail closed: a handler that throws or times out replaces the result with an error naming it,
 * so a crashing redactor never leaks what it was meant to hide.
 */
export function toolResultChain(
  taps: readonly { extension: string; handler: ResultHandler }[],
  options: StageOptions,
): AsyncSeriesWaterfallHook<[ResultState]> {
  const hook = new AsyncSeriesWaterfallHook<[ResultState]>(["state"]);
  for (const { extension, handler } of taps) {
    hook.tapPromise(extension, async (state) => {
      const { toolCall, input } = state.request;
      const event = {
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        input,
        content: state.result.content,
        details: state.result.details,
        isError: state.isError,
      };
      const out = await runHandler(handler, event, state.ctx, options.deadlines);
      if (!out.ok) {
        options.onError({ extension, hook: "tool_result", error: out.error, timedOut: out.timedOut });
        const text = `Result withheld: extension "${extension}" failed in its tool_result handler (${out.error.message}).`;
        return { ...state, result: { content: [{ type: "text", text }], details: {} }, isError: true };
      }
      const patch = out.value;
      if (!patch || typeof patch !== "object") return state;
      const result: ToolResult = { ...state.result };
      if (patch.content !== undefined) result.content = patch.content;
      if (patch.details !== undefined) result.details = patch.details;
      if (patch.terminate !== undefined) result.terminate = patch.terminate;
      return { ...state, result, isError: patch.isError ?? state.isError };
    });
  }
  return hook;
}

/** Runs the chain and returns the final result. */
export async function runToolResultChain(
  hook: AsyncSeriesWaterfallHook<[ResultState]>,
  request: ToolResultRequest,
): Promise<FinalResult> {
  const state = await hook.promise({
    request,
    ctx: { signal: request.signal },
    result: request.result,
    isError: request.isError,
  });
  return { result: state.result, isError: state.isError };
}
