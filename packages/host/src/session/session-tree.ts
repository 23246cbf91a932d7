import { GatehouseError } from "../common/errors.ts";
import { movesLeaf, type SessionEntry } from "./session-format.ts";

/**
 * The entries of a session indexed as a tree, with the current leaf.
 * Contract: `add` is O(1) (cost per turn stays flat as a session grows); the path from the root
 * to any entry is computed on demand by following parent ids.
 */
export class SessionTree {
  readonly #byId = new Map<string, SessionEntry>();
  readonly #order: SessionEntry[] = [];
  #leaf: string | null = null;

  constructor(entries: Iterable<SessionEntry> = []) {
    for (const entry of entries) this.add(entry);
  }

  /** The entry new entries attach to (null before the first one). */
  get leaf(): string | null {
    return this.#leaf;
  }

  /** Number of entries. */
  get size(): number {
    return this.#order.length;
  }

  /** Adds an entry in file order and moves the leaf as its type says. */
  add(entry: SessionEntry): void {
    this.#byId.set(entry.id, entry);
    this.#order.push(entry);
    if (entry.type === "branch") this.#leaf = (entry as { targetId: string }).targetId;
    else if (movesLeaf(entry)) this.#leaf = entry.id;
  }

  /** One entry by id. */
  get(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }

  /** Every entry in file order. */
  entries(): readonly SessionEntry[] {
    return this.#order;
  }

  /**
   * The entries from the root to `id`, inclusive, in order.
   * Contract: throws GH_SESSION when a parent id points at no entry or the chain loops.
   */
  pathTo(id: string | null): SessionEntry[] {
    const path: SessionEntry[] = [];
    const seen = new Set<string>();
    for (let current = id; current !== null; ) {
      const entry = this.#byId.get(current);
      if (!entry) throw new GatehouseError("GH_SESSION", `entry ${current} is referenced but not in the session`);
      if (seen.has(current))
        throw new GatehouseError("GH_SESSION", `the parent chain of entry ${id} loops at ${current}`);
      seen.add(current);
      path.push(entry);
      current = entry.parentId;
    }
    return path.reverse();
  }
}
