import type { AgentEvent, ToolCall, ToolResultMessage } from "@gatehouse/sdk";
import { abortFlag } from "../common/abort-flag.ts";
import { deepFreeze } from "../common/deep-freeze.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import { keepShape } from "../common/keep-shape.ts";
import { argumentSizeProblem, DEFAULT_MAX_ARGUMENT_BYTES } from "./argument-size.ts";
import type { StreamedAssistant } from "./assistant-turn.ts";
import { emitEvent } from "./emit-events.ts";
import { executeAndFinalize } from "./tool-execution.ts";
import { type Preflight, type PreparedCall, preflight } from "./tool-preflight.ts";
import { type FinalizedCall, immediate, type RunHalt, toResultMessage } from "./tool-results.ts";
import type { LoopConfig, TurnState } from "./types.ts";

/** The outcome of one assistant message's tool calls. */
export interface BatchResult {
  results: ToolResultMessage[];
  /** True when at least one call finalized and every finalized result asked to terminate. */
  terminate: boolean;
  /** Set when a guard ended the run (the first such call in source order): nothing follows this batch. */
  halt?: RunHalt | undefined;
}

type Settled = FinalizedCall | { skipped: ToolCall };

const SKIPPED_TEXT = "Tool call skipped: the run was aborted before it started.";

function endEvent(call: FinalizedCall): AgentEvent {
  const event: AgentEvent = {
    type: "tool_execution_end",
    toolCallId: call.toolCall.id,
    toolName: call.toolCall.name,
    args: call.args,
    // The result message is made from this result: an observer must not change it (tool_result
    // hooks are where a result is replaced, validated and named).
    result: deepFreeze(call.result),
    isError: call.isError,
    outcome: call.outcome,
  };
  if (call.blockedBy !== undefined) event.blockedBy = call.blockedBy;
  if (call.reason !== undefined) event.reason = call.reason;
  if (call.effects !== undefined) event.effects = call.effects;
  return event;
}

// An end event gains `blockedBy`, `reason` and `effects` by layout transitions that V8 holds only
// weakly: when a run's last such event dies, the next full GC forgets them and the optimised
// `finish` meets a store it has no feedback for (a deopt inside every run of the plugin rows). One
// idle event of each common kind keeps them (see `keepShape`).
for (const extra of [{ effects: [] }, { blockedBy: "", reason: "", effects: [] }, { blockedBy: "", reason: "" }]) {
  const toolCall: ToolCall = { type: "toolCall", id: "", name: "", arguments: {} };
  const result = { content: [], details: {} };
  keepShape(endEvent({ toolCall, args: {}, result, isError: false, outcome: "executed", ...extra }));
}

function startEvent(toolCall: ToolCall): AgentEvent {
  return { type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments };
}

function duplicate(toolCall: ToolCall): FinalizedCall {
  const text = `Duplicate tool call id "${toolCall.id}": only the first call with this id runs.`;
  return immediate(toolCall, "invalid", text, { reason: text });
}

/**
 * A call from a message cut off at the output-token limit: its arguments may be cut too (and still
 * parse, as a shorter `content`), so it does not run and the model is asked again (SPEC §4.1).
 */
function truncated(toolCall: ToolCall): FinalizedCall {
  const text =
    `Tool call ${toolCall.name} was not run: your message was cut off at the output-token limit ` +
    '(stopReason "length"), so its arguments may be incomplete. Send the call again; split large ' +
    "content over several smaller calls.";
  return immediate(toolCall, "invalid", text, { reason: text });
}

/** What every call of one batch is checked against before its preflight. */
interface BatchChecks {
  /** Ids already started in this message. */
  seen: Set<string>;
  /** Streamed argument bytes per call (see `StreamedAssistant`). */
  argumentBytes: ReadonlyMap<ToolCall, number>;
  /** The message stopped at the output-token limit: none of its calls runs. */
  truncated: boolean;
}

/**
 * A call from a truncated message, a repeated id, or one too large to look at is refused before
 * its preflight; else undefined.
 */
function refusal(toolCall: ToolCall, checks: BatchChecks, config: LoopConfig): FinalizedCall | undefined {
  if (checks.truncated) return truncated(toolCall);
  const isDuplicate = checks.seen.has(toolCall.id);
  checks.seen.add(toolCall.id);
  if (isDuplicate) return duplicate(toolCall);
  const limit = config.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
  const problem = argumentSizeProblem(toolCall, checks.argumentBytes.get(toolCall), limit);
  return problem === undefined ? undefined : immediate(toolCall, "invalid", problem, { reason: problem });
}

/**
 * Adds the host's own pins to a call the guards checked (they computed its effects): what each
 * path resolves to now, before any call of the batch runs, joined with the guards' pins.
 */
function withCheckedPins(call: PreparedCall, config: LoopConfig): PreparedCall {
  if (call.effects === undefined || config.pinEffects === undefined) return call;
  // The host's map is the one handed on (it may carry more than paths); the guards' pins join it.
  const pins = config.pinEffects(call.effects, { pins: call.pins, identities: call.pinIdentities });
  for (const [path, reals] of call.pins ?? []) {
    const known = pins.get(path);
    if (!known) pins.set(path, [...reals]);
    else if (reals.some((real) => !known.includes(real))) {
      pins.set(path, [...known, ...reals.filter((real) => !known.includes(real))]);
    }
  }
  // `call` was made for this call by its preflight: handing the pins on in place copies nothing.
  if (pins.size > 0) call.pins = pins;
  return call;
}

/** What starting a call gave: a call ready to execute, or one already finalized (with its end event). */
type Started = PreparedCall | FinalizedCall;

function isPrepared(started: Started): started is PreparedCall {
  return "tool" in started;
}

/** Emits the end event of a call that never executes; the call once the event is out. */
function endImmediate(config: LoopConfig, call: FinalizedCall): FinalizedCall | Promise<FinalizedCall> {
  const ended = emitEvent(config, endEvent(call));
  return ended ? Promise.resolve(ended).then(() => call) : call;
}

function afterPreflight(pre: Preflight, config: LoopConfig): Started | Promise<Started> {
  return pre.kind === "immediate" ? endImmediate(config, pre.call) : withCheckedPins(pre.call, config);
}

function checkAndPreflight(
  toolCall: ToolCall,
  checks: BatchChecks,
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Started | Promise<Started> {
  const refused = refusal(toolCall, checks, config);
  if (refused) return endImmediate(config, refused);
  return preflight(toolCall, turn, signal, (pre) => afterPreflight(pre, config));
}

/**
 * Stages 3–7 for one call, with its start event and (for immediates) its end event.
 * Synchronous unless the sink or a hook answers with a promise: a batch of 1000 calls with no
 * asynchronous handler starts them all without one microtask each.
 */
function startCall(
  toolCall: ToolCall,
  checks: BatchChecks,
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Started | Promise<Started> {
  const started = emitEvent(config, startEvent(toolCall));
  if (started) return Promise.resolve(started).then(() => checkAndPreflight(toolCall, checks, config, turn, signal));
  return checkAndPreflight(toolCall, checks, config, turn, signal);
}

/** Stages 8–11 up to the end event; a call prepared before an abort but not yet run does not run. */
async function finish(
  prepared: PreparedCall,
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Promise<FinalizedCall> {
  const call = abortFlag(signal).aborted
    ? immediate(prepared.toolCall, "aborted", "Tool call aborted before it ran.", { args: prepared.args })
    : await executeAndFinalize(prepared, config, turn, signal);
  const ended = emitEvent(config, endEvent(call));
  if (ended) await ended;
  return call;
}

/** The result message of a settled slot, once its message_start and message_end are out. */
function emitResult(slot: Settled, config: LoopConfig): ToolResultMessage | Promise<ToolResultMessage> {
  const now = config.now ?? Date.now;
  const call = "skipped" in slot ? immediate(slot.skipped, "aborted", SKIPPED_TEXT) : slot;
  const message = toResultMessage(call, now());
  if ("skipped" in slot) message.details = { skipped: true };
  deepFreeze(message);
  const started = emitEvent(config, { type: "message_start", message });
  if (started) return Promise.resolve(started).then(() => endResult(message, config));
  return endResult(message, config);
}

function endResult(message: ToolResultMessage, config: LoopConfig): ToolResultMessage | Promise<ToolResultMessage> {
  const ended = emitEvent(config, { type: "message_end", message });
  return ended ? Promise.resolve(ended).then(() => message) : message;
}

/** The first guard's halt in source order, if a guard ended the run. */
function haltOf(slots: readonly Settled[]): RunHalt | undefined {
  for (const slot of slots) if (!("skipped" in slot) && slot.halt) return slot.halt;
  return undefined;
}

/** What the batch tells the loop: its results, and whether the run goes on. */
function batchResult(results: ToolResultMessage[], settled: readonly Settled[]): BatchResult {
  const halt = haltOf(settled);
  return halt ? { results, terminate: true, halt } : { results, terminate: shouldTerminate(settled) };
}

function shouldTerminate(slots: readonly Settled[]): boolean {
  let finalized = 0;
  for (const slot of slots) {
    if ("skipped" in slot) return false;
    if (slot.result.terminate !== true) return false;
    finalized++;
  }
  return finalized > 0;
}

/**
 * Runs the tool calls of one finalized assistant message (SPEC §4.1–4.2).
 * Sequential: each call is fully finalized, result message included, before the next starts.
 * Parallel: preflight in source order, then passing calls run concurrently; end events follow
 * completion order, result messages follow source order. After abort no further call starts;
 * calls that never started get an explicit "skipped" error result so the transcript stays paired.
 */
export async function runToolBatch(
  assistant: StreamedAssistant,
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Promise<BatchResult> {
  const calls: ToolCall[] = [];
  for (const block of assistant.message.content) if (block.type === "toolCall") calls.push(block);
  const sequential =
    config.toolExecution === "sequential" || calls.some((c) => turn.tools.get(c.name)?.executionMode === "sequential");
  const checks: BatchChecks = {
    seen: new Set<string>(),
    argumentBytes: assistant.argumentBytes,
    truncated: assistant.message.stopReason === "length",
  };
  const results: ToolResultMessage[] = [];
  const settled: Settled[] = [];
  const abort = abortFlag(signal);

  if (sequential) {
    for (const toolCall of calls) {
      let slot: Settled;
      if (abort.aborted) slot = { skipped: toolCall };
      else {
        let started = startCall(toolCall, checks, config, turn, signal);
        if (isPromiseLike<Started>(started)) started = await started;
        slot = isPrepared(started) ? await finish(started, config, turn, signal) : started;
      }
      settled.push(slot);
      let message = emitResult(slot, config);
      if (isPromiseLike<ToolResultMessage>(message)) message = await message;
      results.push(message);
    }
    return batchResult(results, settled);
  }

  const pending: (Settled | PreparedCall)[] = [];
  for (const toolCall of calls) {
    if (abort.aborted) pending.push({ skipped: toolCall });
    else {
      const started = startCall(toolCall, checks, config, turn, signal);
      pending.push(isPromiseLike<Started>(started) ? await started : started);
    }
  }
  // Every call was checked before any runs: now the passing ones start, together.
  const running: (Settled | Promise<FinalizedCall>)[] = [];
  for (const slot of pending) running.push("tool" in slot ? finish(slot, config, turn, signal) : slot);
  for (const slot of running) settled.push(isPromiseLike<FinalizedCall>(slot) ? await slot : slot);
  for (const slot of settled) {
    let message = emitResult(slot, config);
    if (isPromiseLike<ToolResultMessage>(message)) message = await message;
    results.push(message);
  }
  return batchResult(results, settled);
}
