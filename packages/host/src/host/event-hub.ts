import type { GatehouseEvent } from "@gatehouse/sdk";
import type { Logger } from "pino";
import { errorMessage } from "../common/errors.ts";
import type { HookBus } from "../hooks/hook-bus.ts";

/**
 * Fans every event out to host subscribers (synchronously, in subscription order) and then to
 * extension observers on the current bus (awaited, each with its time limit).
 * Contract: never throws; a subscriber that throws is logged and skipped.
 */
export class EventHub {
  /** Replaced, never changed in place, so a listener that unsubscribes mid-delivery is safe. */
  #listeners: readonly ((event: GatehouseEvent) => void)[] = [];
  readonly #logger: Logger;
  bus: HookBus | undefined;
  signal: AbortSignal | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a subscriber (once, however often it is given); returns the function that removes it. */
  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    if (!this.#listeners.includes(listener)) this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Delivers one event; the returned promise (if any) settles when extension observers are done. */
  emit(event: GatehouseEvent): Promise<void> | undefined {
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) {
      try {
        (listeners[i] as (event: GatehouseEvent) => void)(event);
      } catch (error) {
        this.#logger.error({ event: event.type, err: errorMessage(error) }, "event subscriber threw");
      }
    }
    return this.bus?.observe(event, this.signal);
  }
}
