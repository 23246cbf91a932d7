import type { AnyToolDefinition } from "@gatehouse/sdk";
import { keepShape } from "../common/keep-shape.ts";
import type { ToolSet } from "../loop/types.ts";
import { inheritedEffects } from "./inherited-effects.ts";

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
  /** Other owners that registered the same name and lost (load order decides). */
  shadowed?: ToolSource[];
  /** False when the tool declares no `effects`: a path policy cannot check it (protected-paths refuses it by default). */
  declaresEffects: boolean;
  /** True when it runs its processes through `ctx.sandbox` (`honoursSandbox`). */
  honoursSandbox: boolean;
}

/** A registration that lost a name to an owner earlier in load order. */
export interface ToolConflict {
  name: string;
  winner: ToolSource;
  loser: ToolSource;
}

interface Entry {
  def: AnyToolDefinition;
  source: ToolSource;
  /** Load order of the owner: lower wins a contested name. */
  rank: number;
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

// A snapshot is taken at each turn, after the previous host's died: keep its layout (see keepShape).
keepShape(new FrozenToolSet([]));

/**
 * The tools of a host: built-ins, overridden by name by host or extension tools.
 * Contract: when several owners claim one name, the one earliest in load order (lowest rank)
 * holds it, however often the others reload; the rest are conflicts. An override that declares
 * no `effects` inherits the built-in's for the calls whose input the built-in takes (see
 * `inheritedEffects`), so overriding a tool never takes it out of path policy.
 * `snapshot()` is immutable: changes reach a run only when it takes the next snapshot.
 */
export class ToolRegistry {
  readonly #builtins = new Map<string, AnyToolDefinition>();
  readonly #claims = new Map<string, Entry[]>();
  #snapshot: FrozenToolSet | undefined;

  constructor(builtins: readonly AnyToolDefinition[]) {
    for (const def of builtins) this.#builtins.set(def.name, def);
  }

  /** Registers a tool; returns the conflict if an owner earlier in load order holds the name. */
  register(def: AnyToolDefinition, source: ToolSource, rank: number): ToolConflict | undefined {
    const builtin = this.#builtins.get(def.name);
    const effective = builtin && !def.effects && builtin.effects ? { ...def, effects: inheritedEffects(builtin) } : def;
    const claims = (this.#claims.get(def.name) ?? []).filter((c) => c.source.owner !== source.owner);
    claims.push({ def: effective, source, rank });
    claims.sort((a, b) => a.rank - b.rank);
    this.#claims.set(def.name, claims);
    this.#snapshot = undefined;
    const winner = claims[0] as Entry;
    if (winner.source.owner === source.owner) return undefined;
    return { name: def.name, winner: winner.source, loser: source };
  }

  /** Removes every tool an owner registered (on unload or before a reload commits). */
  removeOwner(owner: string): void {
    for (const [name, claims] of this.#claims) {
      const kept = claims.filter((c) => c.source.owner !== owner);
      if (kept.length === claims.length) continue;
      if (kept.length === 0) this.#claims.delete(name);
      else this.#claims.set(name, kept);
      this.#snapshot = undefined;
    }
  }

  /** The current tool set, cached until the next change; built-ins first, in a stable order. */
  snapshot(): ToolSet {
    if (!this.#snapshot) {
      const defs: AnyToolDefinition[] = [];
      for (const [name, def] of this.#builtins) defs.push(this.#claims.get(name)?.[0]?.def ?? def);
      for (const [name, claims] of this.#claims) if (!this.#builtins.has(name)) defs.push((claims[0] as Entry).def);
      this.#snapshot = new FrozenToolSet(defs);
    }
    return this.#snapshot;
  }

  /** Every active tool with its source, what it overrides and who lost the name to it. */
  describe(): ToolInfo[] {
    return this.snapshot().list.map((def) => {
      const claims = this.#claims.get(def.name);
      const traits = {
        declaresEffects: typeof def.effects === "function",
        honoursSandbox: def.honoursSandbox === true,
      };
      if (!claims) return { name: def.name, source: { owner: "builtin" }, ...traits };
      const info: ToolInfo = { name: def.name, source: (claims[0] as Entry).source, ...traits };
      if (this.#builtins.has(def.name)) info.overrides = def.name;
      if (claims.length > 1) info.shadowed = claims.slice(1).map((c) => c.source);
      return info;
    });
  }

  /** Moves an owner to a new place in the load order (contested names are decided again). */
  rerank(owner: string, rank: number): void {
    for (const [name, claims] of this.#claims) {
      const mine = claims.find((c) => c.source.owner === owner);
      if (!mine || mine.rank === rank) continue;
      mine.rank = rank;
      claims.sort((a, b) => a.rank - b.rank);
      this.#claims.set(name, claims);
      this.#snapshot = undefined;
    }
  }

  /** The names an owner currently holds. */
  namesOf(owner: string): string[] {
    const names: string[] = [];
    for (const [name, claims] of this.#claims) if (claims[0]?.source.owner === owner) names.push(name);
    return names;
  }
}
