import type { GatehouseEvent, GatehouseEventType, HandlerContext, ObserverHandler } from "@gatehouse/sdk";
import { AsyncSeriesHook } from "tapable";
import { deepFreeze } from "../common/deep-freeze.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import type { FinalResult, LoopHooks, ToolCallRequest, ToolCallVerdict, ToolResultRequest } from "../loop/types.ts";
import type { SandboxRuntime } from "../sandbox/sandbox-runtime.ts";
import { type CompactProposal, compactHook } from "./compact-hook.ts";
import { DeadlineQueue } from "./deadline-queue.ts";
import { bailDispatch, type Dispatch, seriesDispatch, waterfallDispatch } from "./dispatch.ts";
import { grantsVerdict } from "./grants-verdict.ts";
import type {
  CompactHandler,
  EnforceHandler,
  HandlerFailure,
  Registration,
  ResultHandler,
  TransformHandler,
} from "./registrations.ts";
import { type HandlerOutcome, runHandler } from "./run-handler.ts";
import {
  type EnforceState,
  enforceStage,
  guardedEvent,
  newGrants,
  type StageOptions,
  type TransformState,
  transformStage,
} from "./tool-call-stages.ts";
import { type ResultState, runToolResultChain, toolResultChain } from "./tool-result-chain.ts";

/** How a bus treats handlers: their time limit and where failures are reported. */
export interface BusOptions {
  timeoutMs: number;
  onError: (failure: HandlerFailure) => void;
  /** Runs the calls guards confine; without it a confined call is blocked (fail closed). */
  sandbox?: SandboxRuntime | undefined;
}

const NEVER_ABORTED = new AbortController().signal;

type Observer = { extension: string; handler: ObserverHandler<GatehouseEventType> };

/** Observers of one event type: tapable orders them; `seriesDispatch` calls them (see dispatch.ts). */
function observerHook(taps: readonly Observer[], type: string, options: StageOptions) {
  const hook = new AsyncSeriesHook<[GatehouseEvent, HandlerContext], void | Promise<void>>(["event", "ctx"]);
  for (const { extension, handler } of taps) {
    const report = (out: HandlerOutcome<unknown>) => {
      if (!out.ok) options.onError({ extension, hook: type, error: out.error, timedOut: out.timedOut });
    };
    hook.tap(extension, (event, ctx) => {
      const out = runHandler(handler as ObserverHandler<GatehouseEventType>, event as never, ctx, options.deadlines);
      if (isPromiseLike<HandlerOutcome<unknown>>(out)) return Promise.resolve(out).then(report);
      report(out);
    });
  }
  return seriesDispatch<GatehouseEvent, HandlerContext>(hook);
}

/**
 * The typed hook bus: every extension handler, compiled into tapable hooks in load order.
 * A bus is immutable; the host builds a new one when registrations change and swaps it in at a
 * turn boundary, so a call in flight never sees half a reload.
 * Contract: guards fail closed (a `tool_call` handler that throws or times out blocks the call),
 * observers fail open; every failure goes to `onError` naming the extension.
 */
export class HookBus implements LoopHooks {
  readonly #transform: Dispatch<[TransformState], ToolCallVerdict | undefined> | undefined;
  readonly #enforce: Dispatch<[EnforceState], ToolCallVerdict | undefined> | undefined;
  readonly #result: Dispatch<[ResultState], ResultState> | undefined;
  readonly #compact;
  readonly #observers = new Map<string, Dispatch<[GatehouseEvent, HandlerContext], void>>();
  /** The handler context of the last signal observed: one per run, not one per event. */
  #observed: HandlerContext = Object.freeze({ signal: NEVER_ABORTED });
  readonly #sandbox: SandboxRuntime | undefined;

  constructor(registrations: readonly Registration[], busOptions: BusOptions) {
    this.#sandbox = busOptions.sandbox;
    const options: StageOptions = { deadlines: new DeadlineQueue(busOptions.timeoutMs), onError: busOptions.onError };
    const transforms: { extension: string; handler: TransformHandler }[] = [];
    const enforcers: { extension: string; handler: EnforceHandler }[] = [];
    const results: { extension: string; handler: ResultHandler }[] = [];
    const compactors: { extension: string; handler: CompactHandler }[] = [];
    const observers = new Map<string, Observer[]>();
    for (const r of registrations) {
      if (r.kind === "transform") transforms.push(r);
      else if (r.kind === "enforce") enforcers.push(r);
      else if (r.kind === "tool_result") results.push(r);
      else if (r.kind === "session_before_compact") compactors.push(r);
      else {
        const list = observers.get(r.event) ?? [];
        list.push(r);
        observers.set(r.event, list);
      }
    }
    this.#transform =
      transforms.length > 0
        ? bailDispatch<TransformState, ToolCallVerdict>(transformStage(transforms, options))
        : undefined;
    this.#enforce =
      enforcers.length > 0 ? bailDispatch<EnforceState, ToolCallVerdict>(enforceStage(enforcers, options)) : undefined;
    this.#result = results.length > 0 ? waterfallDispatch<ResultState>(toolResultChain(results, options)) : undefined;
    this.#compact = compactors.length > 0 ? compactHook(compactors, options) : undefined;
    for (const [type, taps] of observers) this.#observers.set(type, observerHook(taps, type, options));
  }

  /** Stage 7: transform handlers, re-validation, then enforce handlers on the frozen final input. */
  toolCall(request: ToolCallRequest): ToolCallVerdict | Promise<ToolCallVerdict> {
    if (!this.#transform && !this.#enforce) return { action: "allow", input: deepFreeze(request.input) };
    return this.#runToolCall(request);
  }

  /** Synchronous while every handler is: a promise only once one of them returns one. */
  #runToolCall(request: ToolCallRequest): ToolCallVerdict | Promise<ToolCallVerdict> {
    const ctx = { signal: request.signal };
    if (!this.#transform) return this.#runEnforce(request, request.input, ctx);
    const state: TransformState = { request, input: request.input, ctx };
    const verdict = this.#transform(state);
    if (isPromiseLike<ToolCallVerdict | undefined>(verdict)) {
      return Promise.resolve(verdict).then((v) => v ?? this.#runEnforce(request, state.input, ctx));
    }
    return verdict ?? this.#runEnforce(request, state.input, ctx);
  }

  #runEnforce(
    request: ToolCallRequest,
    input: Record<string, unknown>,
    ctx: HandlerContext,
  ): ToolCallVerdict | Promise<ToolCallVerdict> {
    const frozen = deepFreeze(input);
    if (!this.#enforce) return { action: "allow", input: frozen };
    const grants = newGrants();
    const event = guardedEvent(request, frozen, grants);
    if ("action" in event) return event;
    const decide = (verdict: ToolCallVerdict | undefined): ToolCallVerdict | Promise<ToolCallVerdict> => {
      if (!verdict)
        return grantsVerdict({ request, input: frozen, effects: event.effects, grants, sandbox: this.#sandbox });
      return verdict.action === "block" ? { ...verdict, input: frozen, effects: event.effects } : verdict;
    };
    const verdict = this.#enforce({ event, ctx, grants });
    return isPromiseLike<ToolCallVerdict | undefined>(verdict)
      ? Promise.resolve(verdict).then(decide)
      : decide(verdict);
  }

  /** Stage 10: the `tool_result` patch chain. */
  toolResult(request: ToolResultRequest): FinalResult | Promise<FinalResult> {
    if (!this.#result) return { result: request.result, isError: request.isError };
    return runToolResultChain(this.#result, request);
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
    const dispatch = this.#observers.get(event.type);
    if (!dispatch) return undefined;
    if (this.#observed.signal !== signal) this.#observed = Object.freeze({ signal });
    const done = dispatch(event, this.#observed);
    return isPromiseLike<void>(done) ? Promise.resolve(done) : undefined;
  }
}
