import type { GatehouseEvent, GatehouseEventType, HandlerContext } from "@gatehouse/sdk";
import { deepFreeze } from "../common/deep-freeze.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import { keepShape } from "../common/keep-shape.ts";
import { tapable } from "../common/lazy-tapable.ts";
import type { FinalResult, LoopHooks, ToolCallRequest, ToolCallVerdict, ToolResultRequest } from "../loop/types.ts";
import type { SandboxRuntime } from "../sandbox/sandbox-runtime.ts";
import { type CompactProposal, compactHook } from "./compact-hook.ts";
import { DeadlineQueue } from "./deadline-queue.ts";
import { bail, series, tapsOf } from "./dispatch.ts";
import { grantsVerdict } from "./grants-verdict.ts";
import type {
  CompactHandler,
  EnforceHandler,
  EventHandler,
  HandlerFailure,
  Registration,
  ResultHandler,
  TransformHandler,
} from "./registrations.ts";
import { callHandler, type HandlerOutcome } from "./run-handler.ts";
import {
  type EnforceState,
  enforceStage,
  guardedEvent,
  newGrants,
  type StageOptions,
  type StageTap,
  type TransformState,
  transformStage,
} from "./tool-call-stages.ts";
import type { ToolMatch } from "./tool-matcher.ts";
import { type ResultTap, runToolResultChain, toolResultChain } from "./tool-result-chain.ts";

/** How a bus treats handlers: their time limit and where failures are reported. */
export interface BusOptions {
  timeoutMs: number;
  onError: (failure: HandlerFailure) => void;
  /** Runs the calls guards confine; without it a confined call is blocked (fail closed). */
  sandbox?: SandboxRuntime | undefined;
}

const NEVER_ABORTED = new AbortController().signal;
/** Tool names whose compiled stages a bus keeps; more (model-chosen names) are compiled per call. */
const MAX_CACHED_TOOLS = 256;

type Tap<H> = { extension: string; handler: H; match?: ToolMatch | undefined };
type Observer = Tap<EventHandler>;

/** Observers of one event type, in tapable's order; `series` (dispatch.ts) calls them. */
function observerTaps(taps: readonly Observer[], type: string, options: StageOptions): readonly ObserverTap[] {
  const { AsyncSeriesHook } = tapable();
  const hook = new AsyncSeriesHook<[GatehouseEvent, HandlerContext]>(["event", "ctx"]);
  for (const { extension, handler, match } of taps) {
    // tapable keeps every field of the options on the tap, so the tap carries what its function needs.
    const tap = { name: extension, extension, handler, match, type, options };
    hook.tap(tap, callObserver as unknown as (event: GatehouseEvent, ctx: HandlerContext) => void);
  }
  return tapsOf<ObserverTap>(hook);
}

/** One observer tap as tapable keeps it (see dispatch.ts). */
interface ObserverTap extends Observer {
  readonly fn: typeof callObserver;
  readonly type: string;
  readonly options: StageOptions;
}

// Module-level (it gets its tap), not a closure per tap: one function for every host keeps its
// optimised code across hosts (see dispatch.ts).
function callObserver(tap: ObserverTap, event: GatehouseEvent, ctx: HandlerContext, next: () => unknown): unknown {
  // A matcher keeps the handler from being called at all for other tools' events.
  const { match } = tap;
  if (match && !("toolName" in event && match.matches(event.toolName))) return;
  const handler = tap.handler as (event: GatehouseEvent, ctx: HandlerContext) => unknown;
  return callHandler(handler, tap.options.deadlines, event, ctx, (out) => reportObserver(tap, out), next);
}

function reportObserver(tap: ObserverTap, out: HandlerOutcome<unknown>): void {
  if (!out.ok)
    tap.options.onError({ extension: tap.extension, hook: tap.type, error: out.error, timedOut: out.timedOut });
}

/** The taps of one stage that handle calls of `toolName`, in load order. */
function forTool<H>(taps: readonly Tap<H>[], toolName: string): Tap<H>[] {
  return taps.filter((t) => !t.match || t.match.matches(toolName));
}

/** The compiled stages for the calls of one tool: only the handlers whose matcher takes it. */
interface ToolStages {
  transform: readonly StageTap<TransformHandler, TransformState>[] | undefined;
  enforce: readonly StageTap<EnforceHandler, EnforceState>[] | undefined;
  result: readonly ResultTap[] | undefined;
}

/**
 * The typed hook bus: every extension handler, ordered by tapable in load order and called by
 * shared dispatch loops (synchronously while every handler answers synchronously).
 * A bus is immutable; the host builds a new one when registrations change and swaps it in at a
 * turn boundary, so a call in flight never sees half a reload.
 * Contract: guards fail closed (a `tool_call` handler that throws or times out blocks the call),
 * observers fail open; every failure goes to `onError` naming the extension.
 */
export class HookBus implements LoopHooks {
  readonly #transforms: Tap<TransformHandler>[] = [];
  readonly #enforcers: Tap<EnforceHandler>[] = [];
  readonly #results: Tap<ResultHandler>[] = [];
  readonly #byTool = new Map<string, ToolStages>();
  readonly #options: StageOptions;
  readonly #compact;
  readonly #observers = new Map<string, readonly ObserverTap[]>();
  /** The handler context of the last signal seen: one per run, not one per event or call (frozen, shared). */
  #context: HandlerContext = Object.freeze({ signal: NEVER_ABORTED });
  readonly #sandbox: SandboxRuntime | undefined;

  constructor(registrations: readonly Registration[], busOptions: BusOptions) {
    this.#sandbox = busOptions.sandbox;
    const options: StageOptions = { deadlines: new DeadlineQueue(busOptions.timeoutMs), onError: busOptions.onError };
    this.#options = options;
    const compactors: { extension: string; handler: CompactHandler }[] = [];
    const observers = new Map<string, Observer[]>();
    for (const r of registrations) {
      if (r.kind === "transform") this.#transforms.push(r);
      else if (r.kind === "enforce") this.#enforcers.push(r);
      else if (r.kind === "tool_result") this.#results.push(r);
      else if (r.kind === "session_before_compact") compactors.push(r);
      else {
        const list = observers.get(r.event) ?? [];
        list.push(r);
        observers.set(r.event, list);
      }
    }
    this.#compact = compactors.length > 0 ? compactHook(compactors, options) : undefined;
    for (const [type, taps] of observers) this.#observers.set(type, observerTaps(taps, type, options));
  }

  /** The stages for calls of one tool, compiled from the handlers whose matchers take it. */
  #stagesFor(toolName: string): ToolStages {
    const known = this.#byTool.get(toolName);
    if (known) return known;
    const transforms = forTool(this.#transforms, toolName);
    const enforcers = forTool(this.#enforcers, toolName);
    const results = forTool(this.#results, toolName);
    const options = this.#options;
    const stages: ToolStages = {
      transform: transforms.length > 0 ? tapsOf(transformStage(transforms, options)) : undefined,
      enforce: enforcers.length > 0 ? tapsOf(enforceStage(enforcers, options)) : undefined,
      result: results.length > 0 ? tapsOf(toolResultChain(results, options)) : undefined,
    };
    if (this.#byTool.size < MAX_CACHED_TOOLS) this.#byTool.set(toolName, stages);
    return stages;
  }

  /** The handler context for `signal`: the same frozen object for every handler of a run. */
  #contextOf(signal: AbortSignal): HandlerContext {
    if (this.#context.signal !== signal) this.#context = Object.freeze({ signal });
    return this.#context;
  }

  /** Stage 7: transform handlers, re-validation, then enforce handlers on the frozen final input. */
  toolCall(request: ToolCallRequest): ToolCallVerdict | Promise<ToolCallVerdict> {
    const stages = this.#stagesFor(request.toolCall.name);
    if (!stages.transform && !stages.enforce) return { action: "allow", input: deepFreeze(request.input) };
    return this.#runToolCall(request, stages);
  }

  /** Synchronous while every handler is: a promise only once one of them returns one. */
  #runToolCall(request: ToolCallRequest, stages: ToolStages): ToolCallVerdict | Promise<ToolCallVerdict> {
    const ctx = this.#contextOf(request.signal);
    if (!stages.transform) return this.#runEnforce(request, request.input, ctx, stages);
    const state: TransformState = { request, input: request.input, ctx };
    return bail(stages.transform, state, (v) => v ?? this.#runEnforce(request, state.input, ctx, stages));
  }

  #runEnforce(
    request: ToolCallRequest,
    input: Record<string, unknown>,
    ctx: HandlerContext,
    stages: ToolStages,
  ): ToolCallVerdict | Promise<ToolCallVerdict> {
    const frozen = deepFreeze(input);
    if (!stages.enforce) return { action: "allow", input: frozen };
    const grants = newGrants();
    const event = guardedEvent(request, frozen, grants);
    if ("action" in event) return event;
    const decide = (verdict: ToolCallVerdict | undefined): ToolCallVerdict | Promise<ToolCallVerdict> => {
      if (!verdict)
        return grantsVerdict({ request, input: frozen, effects: event.effects, grants, sandbox: this.#sandbox });
      return verdict.action === "block" ? { ...verdict, input: frozen, effects: event.effects } : verdict;
    };
    return bail(stages.enforce, { event, ctx, grants }, decide);
  }

  /** Stage 10: the `tool_result` patch chain. */
  toolResult(request: ToolResultRequest): FinalResult | Promise<FinalResult> {
    const chain = this.#stagesFor(request.toolCall.name).result;
    if (!chain) return { result: request.result, isError: request.isError };
    return runToolResultChain(chain, request, this.#contextOf(request.signal));
  }

  /** `session_before_compact`: lets extensions supply the summary or cancel. */
  async beforeCompact(proposal: CompactProposal): Promise<CompactProposal> {
    return this.#compact ? this.#compact.promise(proposal) : proposal;
  }

  /** Whether any extension observes this event type (lets the host skip work). */
  observes(type: GatehouseEventType): boolean {
    return this.#observers.has(type);
  }

  /** Delivers an event to its observers in load order; resolves when all have run or timed out. */
  observe(event: GatehouseEvent, signal: AbortSignal = NEVER_ABORTED): Promise<void> | undefined {
    const taps = this.#observers.get(event.type);
    if (!taps) return undefined;
    const done = series(taps, event, this.#contextOf(signal));
    return isPromiseLike<void>(done) ? Promise.resolve(done) : undefined;
  }
}

// A bus is built at a run's first turn, after the previous host's bus died: one idle bus keeps the
// layout (and the optimised code of the loop built on it) alive across hosts and full GCs.
keepShape(new HookBus([], { timeoutMs: 1000, onError: () => undefined }));
