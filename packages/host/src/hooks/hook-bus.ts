import type { GatehouseEvent, GatehouseEventType, HandlerContext } from "@gatehouse/sdk";
import { AsyncSeriesHook } from "tapable";
import { deepFreeze } from "../common/deep-freeze.ts";
import type { FinalResult, LoopHooks, ToolCallRequest, ToolCallVerdict, ToolResultRequest } from "../loop/types.ts";
import type { SandboxRuntime } from "../sandbox/sandbox-runtime.ts";
import { type CompactProposal, compactHook } from "./compact-hook.ts";
import { DeadlineQueue } from "./deadline-queue.ts";
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
import { runHandler } from "./run-handler.ts";
import { enforceStage, guardedEvent, newGrants, type StageOptions, transformStage } from "./tool-call-stages.ts";
import type { ToolMatch } from "./tool-matcher.ts";
import { runToolResultChain, toolResultChain } from "./tool-result-chain.ts";

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

function observerHook(taps: readonly Observer[], type: string, options: StageOptions) {
  const hook = new AsyncSeriesHook<[GatehouseEvent, HandlerContext]>(["event", "ctx"]);
  for (const { extension, handler, match } of taps) {
    hook.tapPromise(extension, async (event, ctx) => {
      // A matcher keeps the handler from being called at all for other tools' events.
      if (match && !("toolName" in event && match.matches(event.toolName))) return;
      const out = await runHandler(handler, event, ctx, options.deadlines);
      if (!out.ok) options.onError({ extension, hook: type, error: out.error, timedOut: out.timedOut });
    });
  }
  return hook;
}

/** The taps of one stage that handle calls of `toolName`, in load order. */
function forTool<H>(taps: readonly Tap<H>[], toolName: string): Tap<H>[] {
  return taps.filter((t) => !t.match || t.match.matches(toolName));
}

/** The compiled stages for the calls of one tool: only the handlers whose matcher takes it. */
interface ToolStages {
  transform: ReturnType<typeof transformStage> | undefined;
  enforce: ReturnType<typeof enforceStage> | undefined;
  result: ReturnType<typeof toolResultChain> | undefined;
}

/**
 * The typed hook bus: every extension handler, compiled into tapable hooks in load order.
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
  readonly #observers = new Map<string, AsyncSeriesHook<[GatehouseEvent, HandlerContext]>>();
  readonly #sandbox: SandboxRuntime | undefined;

  constructor(registrations: readonly Registration[], busOptions: BusOptions) {
    this.#sandbox = busOptions.sandbox;
    const options: StageOptions = { deadlines: new DeadlineQueue(busOptions.timeoutMs), onError: busOptions.onError };
    this.#options = options;
    const transforms = this.#transforms;
    const enforcers = this.#enforcers;
    const results = this.#results;
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
    this.#compact = compactors.length > 0 ? compactHook(compactors, options) : undefined;
    for (const [type, taps] of observers) this.#observers.set(type, observerHook(taps, type, options));
  }

  /** The stages for calls of one tool, compiled from the handlers whose matchers take it. */
  #stagesFor(toolName: string): ToolStages {
    const known = this.#byTool.get(toolName);
    if (known) return known;
    const transforms = forTool(this.#transforms, toolName);
    const enforcers = forTool(this.#enforcers, toolName);
    const results = forTool(this.#results, toolName);
    const stages: ToolStages = {
      transform: transforms.length > 0 ? transformStage(transforms, this.#options) : undefined,
      enforce: enforcers.length > 0 ? enforceStage(enforcers, this.#options) : undefined,
      result: results.length > 0 ? toolResultChain(results, this.#options) : undefined,
    };
    if (this.#byTool.size < MAX_CACHED_TOOLS) this.#byTool.set(toolName, stages);
    return stages;
  }

  /** Stage 7: transform handlers, re-validation, then enforce handlers on the frozen final input. */
  toolCall(request: ToolCallRequest): ToolCallVerdict | Promise<ToolCallVerdict> {
    const stages = this.#stagesFor(request.toolCall.name);
    if (!stages.transform && !stages.enforce) return { action: "allow", input: deepFreeze(request.input) };
    return this.#runToolCall(request, stages);
  }

  async #runToolCall(request: ToolCallRequest, stages: ToolStages): Promise<ToolCallVerdict> {
    const ctx = { signal: request.signal };
    let input = request.input;
    if (stages.transform) {
      const state = { request, input, ctx };
      const verdict = await stages.transform.promise(state);
      if (verdict) return verdict;
      input = state.input;
    }
    const frozen = deepFreeze(input);
    if (!stages.enforce) return { action: "allow", input: frozen };
    const grants = newGrants();
    const event = guardedEvent(request, frozen, grants);
    if ("action" in event) return event;
    const verdict = await stages.enforce.promise({ event, ctx, grants });
    if (!verdict)
      return grantsVerdict({ request, input: frozen, effects: event.effects, grants, sandbox: this.#sandbox });
    return verdict.action === "block" ? { ...verdict, input: frozen, effects: event.effects } : verdict;
  }

  /** Stage 10: the `tool_result` patch chain. */
  toolResult(request: ToolResultRequest): FinalResult | Promise<FinalResult> {
    const chain = this.#stagesFor(request.toolCall.name).result;
    if (!chain) return { result: request.result, isError: request.isError };
    return runToolResultChain(chain, request);
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
    const hook = this.#observers.get(event.type);
    return hook?.promise(event, { signal });
  }
}
