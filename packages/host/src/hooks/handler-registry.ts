import { type BusOptions, HookBus } from "./hook-bus.ts";
import type { Registration } from "./registrations.ts";

interface Ranked {
  registration: Registration;
  rank: number;
}

/**
 * Every handler every extension registered, ordered by the extension's load order (rank) and
 * then by registration order, and the bus compiled from them.
 * Contract: `bus()` returns the same immutable bus until a handler is added or removed; a
 * reloaded extension keeps its place in the order.
 */
export class HandlerRegistry {
  #entries: Ranked[] = [];
  readonly #options: BusOptions;
  #bus: HookBus | undefined;

  constructor(options: BusOptions) {
    this.#options = options;
  }

  /** Adds a handler after every other handler of the same or an earlier rank. */
  add(registration: Registration, rank: number): void {
    let at = this.#entries.length;
    while (at > 0 && (this.#entries[at - 1] as Ranked).rank > rank) at--;
    this.#entries.splice(at, 0, { registration, rank });
    this.#bus = undefined;
  }

  /** Removes every handler of one extension (unload, or before a reload commits). */
  removeOwner(extension: string): void {
    const kept = this.#entries.filter((e) => e.registration.extension !== extension);
    if (kept.length !== this.#entries.length) {
      this.#entries = kept;
      this.#bus = undefined;
    }
  }

  /** Moves an extension's handlers to a new place in the load order, keeping their own order. */
  rerank(extension: string, rank: number): void {
    const moved = this.#entries.filter((e) => e.registration.extension === extension);
    if (moved.length === 0 || moved.every((e) => e.rank === rank)) return;
    this.removeOwner(extension);
    for (const e of moved) this.add(e.registration, rank);
  }

  /** The hooks an extension handles, for `gatehouse extensions` (`tool_call:enforce[write,edit]` when matched). */
  describe(extension: string): string[] {
    return this.#entries
      .filter((e) => e.registration.extension === extension)
      .map(({ registration: r }) => {
        const hook =
          r.kind === "event"
            ? r.event
            : r.kind === "transform" || r.kind === "enforce"
              ? `tool_call:${r.kind}`
              : r.kind;
        return r.match ? `${hook}[${r.match.text}]` : hook;
      });
  }

  /** The bus for the current handlers. */
  bus(): HookBus {
    this.#bus ??= new HookBus(
      this.#entries.map((e) => e.registration),
      this.#options,
    );
    return this.#bus;
  }
}
