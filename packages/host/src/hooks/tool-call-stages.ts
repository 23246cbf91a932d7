import type {
  CheckedFileIdentity,
  GuardedToolCallEvent,
  HandlerContext,
  SandboxProfile,
  ToolEffect,
} from "@gatehouse/sdk";
import type { AsyncSeriesBailHook } from "tapable";
import { deepFreeze } from "../common/deep-freeze.ts";
import { errorMessage } from "../common/errors.ts";
import { tapable } from "../common/lazy-tapable.ts";
import type { PinIdentity, ToolCallRequest, ToolCallVerdict } from "../loop/types.ts";
import type { DeadlineQueue } from "./deadline-queue.ts";
import { normaliseEffects } from "./effect-shape.ts";
import { type TrackedObject, trackMutations } from "./mutation-tracker.ts";
import type { EnforceHandler, HandlerFailure, TransformHandler } from "./registrations.ts";
import { callHandler, type HandlerOutcome } from "./run-handler.ts";

/** Settings shared by every stage of one bus. */
export interface StageOptions {
  deadlines: DeadlineQueue;
  onError: (failure: HandlerFailure) => void;
}

interface TransformState {
  request: ToolCallRequest;
  input: Record<string, unknown>;
  ctx: HandlerContext;
}

interface EnforceState {
  event: GuardedToolCallEvent;
  ctx: HandlerContext;
  grants: CallGrants;
}

/**
 * What the enforce-stage guards hand the tool besides their verdict, collected while they run:
 * pinned real paths, confinements (with the guard that asked) and read filters.
 */
export interface CallGrants {
  pins: Map<string, string[]>;
  /** What the guards saw at each pinned real path; "conflict" when two guards saw different files. */
  identities: Map<string, PinIdentity>;
  confinements: { by: string; profile: SandboxProfile }[];
  readFilters: { by: string; canRead: (absolutePath: string) => boolean }[];
  /** The guard whose handler is running; grants made outside a handler are ignored. */
  current: string | undefined;
}

/** Empty grants for one call. */
export function newGrants(): CallGrants {
  return { pins: new Map(), identities: new Map(), confinements: [], readFilters: [], current: undefined };
}

function failedClosed(
  extension: string,
  hook: string,
  failure: { error: Error; timedOut: boolean },
  options: StageOptions,
): ToolCallVerdict {
  options.onError({ extension, hook, ...failure });
  const reason = `Blocked: extension "${extension}" failed in its ${hook} handler (${failure.error.message}), so the call was not run.`;
  return { action: "block", blockedBy: extension, reason };
}

/** A handler's `{ block: true, reason, terminate }` as a verdict; `terminate: true` also ends the run after the batch. */
function blocked(extension: string, value: { reason?: unknown; terminate?: unknown }): ToolCallVerdict {
  const { reason } = value;
  const text = typeof reason === "string" && reason.length > 0 ? reason : `Blocked by extension "${extension}".`;
  const verdict: ToolCallVerdict = { action: "block", blockedBy: extension, reason: text };
  if (value.terminate === true) verdict.terminate = true;
  return verdict;
}

/** The keys a `tool_call` answer may have per stage, besides the event's own (`{ ...event, input }` is fine). */
const ANSWER_KEYS = {
  transform: new Set(["block", "reason", "terminate", "input", "toolCallId", "toolName"]),
  enforce: new Set(["block", "reason", "terminate", "toolCallId", "toolName", "effects"]),
};

/**
 * Why a handler's object answer is malformed, or undefined. A guard written in plain JavaScript (or
 * TypeScript that jiti loads without type checking) that answers `{ block: "true" }`, a misspelt
 * `{ blocked: true }`, or `{ input }` from the enforce stage, meant to stop or change the call:
 * ignoring that would leave the policy silently off, so it blocks (fail closed). Answers that are
 * not objects (`list.push(x)`'s number), and the call's own input handed back (`Object.assign(e.input, ...)`),
 * are no decision and stay ignored.
 */
function answerProblem(value: Record<string, unknown>, stage: "transform" | "enforce"): string | undefined {
  if (value.block !== undefined && typeof value.block !== "boolean") {
    return `it answered block: ${JSON.stringify(value.block) ?? typeof value.block}, but block must be true or false`;
  }
  if (stage === "enforce" && "input" in value) {
    return "it answered { input }, but the enforce stage may only block (change arguments in the transform stage)";
  }
  const unknown = Object.keys(value).filter((key) => !ANSWER_KEYS[stage].has(key));
  if (unknown.length > 0) {
    const expected =
      stage === "transform" ? "{ block: true, reason }, { input } or nothing" : "{ block: true, reason } or nothing";
    return `it answered { ${unknown.join(", ")} }, which is not a tool_call answer (expected ${expected})`;
  }
  return undefined;
}

/** What one tap of a stage answers: a verdict that ends the stage, or `undefined` to go on. */
export type StageAnswer = ToolCallVerdict | undefined;

/** A stage's hook: tapable orders the taps; `bail` calls them (see dispatch.ts). */
type StageHook<S> = AsyncSeriesBailHook<[S], StageAnswer | Promise<StageAnswer>>;

/** The outcome of one transform handler: block, re-validated new input, or nothing changed. */
function afterTransform(
  out: HandlerOutcome<unknown>,
  extension: string,
  state: TransformState,
  tracked: TrackedObject<Record<string, unknown>>,
  options: StageOptions,
): StageAnswer {
  if (!out.ok) return failedClosed(extension, "tool_call (transform)", out, options);
  const value = out.value as Record<string, unknown> | undefined | null;
  let candidate: unknown;
  if (value && typeof value === "object" && value !== tracked.proxy && value !== state.input) {
    const problem = answerProblem(value, "transform");
    if (problem)
      return failedClosed(extension, "tool_call (transform)", { error: new Error(problem), timedOut: false }, options);
    if (value.block === true) return blocked(extension, value);
    if ("input" in value) candidate = value.input;
  }
  if (candidate === undefined && tracked.isDirty()) candidate = state.input;
  if (candidate === undefined) return undefined;
  const validation = state.request.validate(candidate);
  if (!validation.ok) {
    const { toolCall } = state.request;
    const reason = `Extension "${extension}" changed the arguments of ${toolCall.name} into an invalid shape: ${validation.message}`;
    return { action: "invalid", blockedBy: extension, reason };
  }
  state.input = validation.value;
  return undefined;
}

/** One stage tap as tapable keeps it (see dispatch.ts): its function, whose handler, the stage's settings. */
export interface StageTap<H, S> {
  readonly fn: (
    tap: StageTap<H, S>,
    state: S,
    next: (answer: StageAnswer) => unknown,
  ) => StageAnswer | Promise<unknown>;
  readonly extension: string;
  readonly handler: H;
  readonly options: StageOptions;
}

/** Taps `fn` for each handler, in order: tapable orders them, `bail` (dispatch.ts) calls them. */
function stageHook<H, S>(
  taps: readonly { extension: string; handler: H }[],
  options: StageOptions,
  fn: StageTap<H, S>["fn"],
): StageHook<S> {
  const hook: StageHook<S> = new (tapable().AsyncSeriesBailHook)(["state"]);
  for (const { extension, handler } of taps) {
    // tapable keeps every field of the options on the tap, so the tap carries what `fn` needs.
    const tap = { name: extension, extension, handler, options };
    hook.tap(tap, fn as unknown as (state: S) => StageAnswer);
  }
  return hook;
}

/** The transform stage: handlers may mutate or replace the input, or block; each change is re-validated. */
export function transformStage(
  taps: readonly { extension: string; handler: TransformHandler }[],
  options: StageOptions,
): StageHook<TransformState> {
  return stageHook(taps, options, callTransform);
}

// The taps' functions are module-level (each gets its tap), not closures made per tap: one function
// for every host keeps its optimised code across hosts (see dispatch.ts).

function callTransform(
  tap: StageTap<TransformHandler, TransformState>,
  state: TransformState,
  next: (answer: StageAnswer) => unknown,
): StageAnswer | Promise<unknown> {
  const tracked = trackMutations(state.input);
  const { toolCall } = state.request;
  const event = { toolCallId: toolCall.id, toolName: toolCall.name, input: tracked.proxy };
  const { extension, options } = tap;
  const then = (out: HandlerOutcome<unknown>) => afterTransform(out, extension, state, tracked, options);
  return callHandler(tap.handler, options.deadlines, event, state.ctx, then, next);
}

/** The outcome of one enforce handler: block, or nothing to say. */
function afterEnforce(
  out: HandlerOutcome<unknown>,
  extension: string,
  state: EnforceState,
  options: StageOptions,
): StageAnswer {
  if (!out.ok) return failedClosed(extension, "tool_call (enforce)", out, options);
  const value = out.value as Record<string, unknown> | undefined | null;
  if (!value || typeof value !== "object" || value === state.event.input) return undefined;
  const problem = answerProblem(value, "enforce");
  if (problem)
    return failedClosed(extension, "tool_call (enforce)", { error: new Error(problem), timedOut: false }, options);
  return value.block === true ? blocked(extension, value) : undefined;
}

/** The enforce stage: handlers see the final input, frozen, with its effects, and may only block. */
export function enforceStage(
  taps: readonly { extension: string; handler: EnforceHandler }[],
  options: StageOptions,
): StageHook<EnforceState> {
  return stageHook(taps, options, callEnforce);
}

function callEnforce(
  tap: StageTap<EnforceHandler, EnforceState>,
  state: EnforceState,
  next: (answer: StageAnswer) => unknown,
): StageAnswer | Promise<unknown> {
  const { extension, options } = tap;
  state.grants.current = extension;
  const then = (out: HandlerOutcome<unknown>) => {
    state.grants.current = undefined;
    return afterEnforce(out, extension, state, options);
  };
  return callHandler(tap.handler, options.deadlines, state.event, state.ctx, then, next);
}

/** A guard's identity argument if it is one (anything else is ignored, as if not given). */
function identityOf(value: unknown): CheckedFileIdentity | undefined {
  if (value === "absent") return "absent";
  if (value === null || typeof value !== "object") return undefined;
  const { dev, ino } = value as { dev?: unknown; ino?: unknown };
  return typeof dev === "number" && typeof ino === "number" ? { dev, ino } : undefined;
}

function sameIdentity(a: PinIdentity, b: CheckedFileIdentity): boolean {
  if (a === "conflict") return false;
  if (a === "absent" || b === "absent") return a === b;
  return a.dev === b.dev && a.ino === b.ino;
}

/** Computes a call's effects for the guards; a tool whose effects cannot be computed does not run. */
export function guardedEvent(
  request: ToolCallRequest,
  input: Readonly<Record<string, unknown>>,
  grants: CallGrants,
): GuardedToolCallEvent | ToolCallVerdict {
  let effects: ToolEffect[] | undefined;
  try {
    if (request.tool.effects !== undefined) {
      const shape = normaliseEffects(request.tool.effects(input));
      if ("problem" in shape) {
        const reason = `Blocked: the effects of tool ${request.tool.name} cannot be checked: ${shape.problem}.`;
        return { action: "block", blockedBy: "gatehouse", reason };
      }
      effects = shape.effects;
    }
  } catch (error) {
    const reason = `Blocked: the effects of tool ${request.tool.name} could not be determined (${errorMessage(error)}).`;
    return { action: "block", blockedBy: "gatehouse", reason };
  }
  const { toolCall } = request;
  const { pins, identities } = grants;
  const pin = (absolutePath: string, realPath: string, identity?: CheckedFileIdentity) => {
    if (typeof absolutePath !== "string" || typeof realPath !== "string") return;
    const list = pins.get(absolutePath) ?? [];
    if (!list.includes(realPath)) list.push(realPath);
    pins.set(absolutePath, list);
    const seen = identityOf(identity);
    if (seen === undefined) return;
    const known = identities.get(realPath);
    identities.set(realPath, known === undefined || sameIdentity(known, seen) ? seen : "conflict");
  };
  // A grant counts only while its guard's handler runs: a guard cannot confine a call later.
  const confine = (profile: SandboxProfile) => {
    const by = grants.current;
    if (by !== undefined) grants.confinements.push({ by, profile });
  };
  const restrictReads = (canRead: (absolutePath: string) => boolean) => {
    const by = grants.current;
    if (by !== undefined && typeof canRead === "function") grants.readFilters.push({ by, canRead });
  };
  return deepFreeze({ toolCallId: toolCall.id, toolName: toolCall.name, input, effects, pin, confine, restrictReads });
}

export type { EnforceState, TransformState };
