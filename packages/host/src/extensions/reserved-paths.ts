import path from "node:path";
import type { ReservedPath } from "@gatehouse/sdk";
import { GatehouseError } from "../common/errors.ts";
import { realOr } from "../common/real-or.ts";

/**
 * The paths reserved in one host, per owner (an extension's API instance, or the host itself).
 * Contract: `list()` returns the same frozen array until something changes, then a new one; an
 * owner's reservations go away together (`removeOwner`), so a reloaded version's reservations are
 * never removed with the old version's.
 */
export class ReservedPaths {
  #byOwner = new Map<object, ReservedPath[]>();
  #snapshot: readonly ReservedPath[] = Object.freeze([]);

  /** Reserves `target` (resolved against `cwd`, links resolved when it exists) for `owner`. */
  add(owner: object, entry: { path: string; cwd: string; why: string; hide: boolean; by: string }): void {
    if (typeof entry.path !== "string" || entry.path.trim() === "" || entry.path.includes("\0")) {
      throw new GatehouseError("GH_EXTENSION_LOAD", `Extension "${entry.by}": reservePath needs a non-empty path.`);
    }
    const absolute = path.resolve(entry.cwd, entry.path);
    const spellings = new Set([absolute, realOr(absolute)]);
    const list = this.#byOwner.get(owner) ?? [];
    for (const p of spellings) {
      list.push(Object.freeze({ path: p, hide: entry.hide, why: entry.why, by: entry.by }));
    }
    this.#byOwner.set(owner, list);
    this.#changed();
  }

  /** Drops every reservation of `owner`. */
  removeOwner(owner: object): void {
    if (this.#byOwner.delete(owner)) this.#changed();
  }

  /** The current reservations (a frozen array, replaced on change). */
  list(): readonly ReservedPath[] {
    return this.#snapshot;
  }

  #changed(): void {
    this.#snapshot = Object.freeze([...this.#byOwner.values()].flat());
  }
}
