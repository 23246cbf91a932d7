import { type BusOptions, HookBus } from "./hook-bus.ts";
import type { Registration } from "./registrations.ts";

/**
 * Every handler every extension registered, in load order, and the bus compiled from them.
 * Contract: `bus()` returns the same immutable bus until a handler is added or removed.
 */
export class HandlerRegistry {
  readonly #registrations: Registration[] = [];
  readonly #options: BusOptions;
  #bus: HookBus | undefined;

  constructor(options: BusOptions) {
    this.#options = options;
  }

  /** Adds a handler at the end of the load order. */
  add(registration: Registration): void {
    this.#registrations.push(registration);
    this.#bus = undefined;
  }

  /** Removes every handler of one extension (unload or reload). */
  removeOwner(extension: string): void {
    let write = 0;
    for (const r of this.#registrations) if (r.extension !== extension) this.#registrations[write++] = r;
    if (write !== this.#registrations.length) {
      this.#registrations.length = write;
      this.#bus = undefined;
    }
  }

  /** Handler counts of one extension by hook name, for `gatehouse extensions`. */
  describe(extension: string): string[] {
    return this.#registrations
      .filter((r) => r.extension === extension)
      .map((r) => (r.kind === "event" ? r.event : r.kind === "tool_result" ? "tool_result" : `tool_call:${r.kind}`));
  }

  /** The bus for the current registrations. */
  bus(): HookBus {
    this.#bus ??= new HookBus(this.#registrations, this.#options);
    return this.#bus;
  }
}
