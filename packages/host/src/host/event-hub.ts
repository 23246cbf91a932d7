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
  readonly #listeners = new Set<(event: GatehouseEvent) => void>();
  readonly #logger: Logger;
  bus: HookBus | undefined;
  signal: AbortSignal | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Adds a subscriber; returns the function that removes it. */
  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Delivers one event; the returned promise (if any) settles when extension observers are done. */
  emit = (event: GatehouseEvent): Promise<void> | undefined => {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.error({ event: event.type, err: errorMessage(error) }, "event subscriber threw");
      }
    }
    return this.bus?.observe(event, this.signal);
  };
}
