import type { AnyToolDefinition } from "@gatehouse/sdk";
import type { ToolSet } from "../loop/types.ts";

/** Where a registered tool came from. */
export interface ToolSource {
  /** "builtin", "host" (given to createHost) or the extension's name. */
  owner: string;
  /** The file that registered it, when known. */
  file?: string | undefined;
}

/** One row of `gatehouse tools`. */
export interface ToolInfo {
  name: string;
  source: ToolSource;
  /** The built-in this tool replaces, if any. */
  overrides?: string;
}

/** Why a registration was refused: the name is already claimed by another owner. */
export interface ToolConflict {
  name: string;
  winner: ToolSource;
  loser: ToolSource;
}

interface Entry {
  def: AnyToolDefinition;
  source: ToolSource;
}

class FrozenToolSet implements ToolSet {
  readonly list: readonly AnyToolDefinition[];
  readonly #byName: Map<string, AnyToolDefinition>;

  constructor(defs: AnyToolDefinition[]) {
    this.list = Object.freeze(defs);
    this.#byName = new Map(defs.map((d) => [d.name, d]));
  }

  get(name: string): AnyToolDefinition | undefined {
    return this.#byName.get(name);
  }
}

/**
 * The tools of a host: built-ins, overridden by name by host or extension tools.
 * Contract: the first owner to claim a non-built-in name keeps it (load order); later claims are
 * refused and returned as conflicts. An override that declares no `effects` inherits the
 * built-in's, so overriding a tool never takes it out of path policy.
 */
export class ToolRegistry {
  readonly #builtins = new Map<string, AnyToolDefinition>();
  readonly #claimed = new Map<string, Entry>();
  #snapshot: FrozenToolSet | undefined;

  constructor(builtins: readonly AnyToolDefinition[]) {
    for (const def of builtins) this.#builtins.set(def.name, def);
  }

  /** Registers a tool for an owner; returns the conflict if another owner holds the name. */
  register(def: AnyToolDefinition, source: ToolSource): ToolConflict | undefined {
    const existing = this.#claimed.get(def.name);
    if (existing && existing.source.owner !== source.owner) {
      return { name: def.name, winner: existing.source, loser: source };
    }
    const builtin = this.#builtins.get(def.name);
    const effective = builtin && !def.effects && builtin.effects ? { ...def, effects: builtin.effects } : def;
    this.#claimed.set(def.name, { def: effective, source });
    this.#snapshot = undefined;
    return undefined;
  }

  /** Removes every tool an owner registered (on unload or reload). */
  removeOwner(owner: string): void {
    for (const [name, entry] of this.#claimed) {
      if (entry.source.owner === owner) {
        this.#claimed.delete(name);
        this.#snapshot = undefined;
      }
    }
  }

  /** The current tool set, cached until the next change; built-ins first, in a stable order. */
  snapshot(): ToolSet {
    if (!this.#snapshot) {
      const defs: AnyToolDefinition[] = [];
      for (const [name, def] of this.#builtins) defs.push(this.#claimed.get(name)?.def ?? def);
      for (const [name, entry] of this.#claimed) if (!this.#builtins.has(name)) defs.push(entry.def);
      this.#snapshot = new FrozenToolSet(defs);
    }
    return this.#snapshot;
  }

  /** Every active tool with its source and what it overrides. */
  describe(): ToolInfo[] {
    return this.snapshot().list.map((def) => {
      const entry = this.#claimed.get(def.name);
      if (!entry) return { name: def.name, source: { owner: "builtin" } };
      const info: ToolInfo = { name: def.name, source: entry.source };
      if (this.#builtins.has(def.name)) info.overrides = def.name;
      return info;
    });
  }
}
