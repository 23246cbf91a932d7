import type { HandlerContext, ToolResult } from "@gatehouse/sdk";
import type { AsyncSeriesWaterfallHook } from "tapable";
import { tapable } from "../common/lazy-tapable.ts";
import { contentProblem, flagProblem, jsonProblem } from "../common/tool-result-shape.ts";
import type { FinalResult, ToolResultRequest } from "../loop/types.ts";
import { waterfall } from "./dispatch.ts";
import type { ResultHandler } from "./registrations.ts";
import { callHandler, type HandlerOutcome } from "./run-handler.ts";
import type { StageOptions } from "./tool-call-stages.ts";

/** The value passed down the `tool_result` chain. */
export interface ResultState {
  request: ToolResultRequest;
  ctx: HandlerContext;
  result: ToolResult;
  isError: boolean;
}

/** What a `tool_result` handler returns (a handler that changes nothing returns nothing). */
type ResultAnswer = Awaited<ReturnType<ResultHandler>>;

/** The chain's hook: tapable orders the taps; `waterfall` calls them (see dispatch.ts). */
export type ResultChainHook = AsyncSeriesWaterfallHook<[ResultState], ResultState | Promise<ResultState>>;

/** The state after one handler: its patch applied field by field, or an error naming it. */
function afterHandler(
  out: HandlerOutcome<ResultAnswer>,
  extension: string,
  state: ResultState,
  options: StageOptions,
): ResultState {
  const withhold = (error: Error, timedOut?: boolean): ResultState => {
    options.onError({ extension, hook: "tool_result", error, timedOut: timedOut === true });
    const text = `Result withheld: extension "${extension}" failed in its tool_result handler (${error.message}).`;
    return { ...state, result: { content: [{ type: "text", text }], details: {} }, isError: true };
  };
  if (!out.ok) return withhold(out.error, out.timedOut);
  const patch = out.value;
  if (!patch || typeof patch !== "object") return state;
  // A patch that cannot be a result fails closed like a throw: the model never gets a broken message.
  const problem = patchProblem(patch);
  if (problem) return withhold(new Error(`its patch is invalid: ${problem}`));
  const result: ToolResult = { ...state.result };
  if (patch.content !== undefined) result.content = patch.content;
  if (patch.details !== undefined) result.details = patch.details;
  if (patch.terminate !== undefined) result.terminate = patch.terminate;
  return { ...state, result, isError: patch.isError ?? state.isError };
}

/** The fields a patch may carry: its own, and the event's (`{ ...event, content }` is fine). */
const PATCH_KEYS = new Set(["content", "details", "isError", "terminate", "toolCallId", "toolName", "input"]);

/**
 * Why a handler's patch cannot be applied (a field of the wrong shape, or one no patch has: a
 * redactor's misspelt `{ contents }` would otherwise pass the unredacted result on), or undefined.
 */
function patchProblem(patch: {
  content?: unknown;
  details?: unknown;
  isError?: unknown;
  terminate?: unknown;
}): string | undefined {
  const unknown = Object.keys(patch).filter((key) => !PATCH_KEYS.has(key));
  if (unknown.length > 0) {
    return `it has { ${unknown.join(", ")} }, which a patch cannot have (expected content, details, isError, terminate)`;
  }
  if (patch.content !== undefined) {
    const problem = contentProblem(patch.content);
    if (problem) return problem;
  }
  return (
    flagProblem(patch, "isError") ??
    flagProblem(patch, "terminate") ??
    (patch.details === undefined ? undefined : jsonProblem(patch.details, "details"))
  );
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
): ResultChainHook {
  const hook: ResultChainHook = new (tapable().AsyncSeriesWaterfallHook)(["state"]);
  for (const { extension, handler } of taps) {
    // tapable keeps every field of the options on the tap, so the tap carries what its function needs.
    const tap = { name: extension, extension, handler, options };
    hook.tap(tap, callResultHandler as unknown as (state: ResultState) => ResultState);
  }
  return hook;
}

/** One tap of the chain as tapable keeps it (see dispatch.ts). */
export interface ResultTap {
  readonly fn: typeof callResultHandler;
  readonly extension: string;
  readonly handler: ResultHandler;
  readonly options: StageOptions;
}

// Module-level (it gets its tap), not a closure per tap: one function for every host keeps its
// optimised code across hosts (see dispatch.ts).
function callResultHandler(
  tap: ResultTap,
  state: ResultState,
  next: (value: ResultState) => unknown,
): ResultState | Promise<unknown> {
  const { toolCall, input } = state.request;
  const event = {
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    input,
    content: state.result.content,
    details: state.result.details,
    isError: state.isError,
  };
  const { extension, options } = tap;
  const then = (out: HandlerOutcome<ResultAnswer>) => afterHandler(out, extension, state, options);
  return callHandler(tap.handler, options.deadlines, event, state.ctx, then, next);
}

/** Runs the chain and returns the final result. */
export function runToolResultChain(
  taps: readonly ResultTap[],
  request: ToolResultRequest,
  ctx: HandlerContext = { signal: request.signal },
): FinalResult | Promise<FinalResult> {
  return waterfall(taps, { request, ctx, result: request.result, isError: request.isError }, finalOf);
}

function finalOf(state: ResultState): FinalResult {
  return { result: state.result, isError: state.isError };
}
