import type { AgentEvent } from "@gatehouse/sdk";
import { isPromiseLike } from "../common/is-promise.ts";
import type { LoopConfig } from "./types.ts";

/**
 * Emits one event; returns a promise only when the sink answered with one.
 * Why: most events have no asynchronous observer, and awaiting a plain value still costs a
 * microtask and a promise, per event, on the loop's hottest path.
 */
export function emitEvent(config: LoopConfig, event: AgentEvent): PromiseLike<void> | undefined {
  const returned = config.emit(event);
  return isPromiseLike<void>(returned) ? returned : undefined;
}

/**
 * Emits events in order, each after the previous one's observers are done.
 * Contract: returns `undefined` when every emit was synchronous, else a promise that settles after
 * the last one; `events` is read as it is now (from `from` on), so the caller may reuse the array
 * once the returned promise (if any) has settled.
 */
export function emitEvents(config: LoopConfig, events: readonly AgentEvent[], from = 0): PromiseLike<void> | undefined {
  for (let i = from; i < events.length; i++) {
    const pending = emitEvent(config, events[i] as AgentEvent);
    if (pending) return Promise.resolve(pending).then(() => emitEvents(config, events, i + 1));
  }
  return undefined;
}
