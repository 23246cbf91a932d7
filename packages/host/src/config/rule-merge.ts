import { isDeepStrictEqual } from "node:util";
import type { ConfigMergeRule, ConfigMergeRules } from "@gatehouse/sdk";
import { locationOf, type SettingsLocation } from "./extension-specs.ts";
import { mergeValues, unionOf } from "./merge-config.ts";
import type { SettingsLevel, SettingsLevelName } from "./settings-levels.ts";

/** One level's value at some path of an extension's section. */
export interface LevelValue {
  readonly level: SettingsLevel;
  readonly value: unknown;
}

/** A lower level's attempt to loosen the managed floor, or a value the rules cannot place. */
export interface MergeProblem {
  /** Where the offending value is written. */
  readonly at: SettingsLocation;
  /** Its path inside the extension's section. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What `mergeSection` needs besides the levels' values. */
export interface RuleMergeOptions {
  /** The extension's name: values live at `config.<name>` in each file. */
  readonly name: string;
  /** How each key merges; keys without a rule merge generically (see `mergeSettings`). */
  readonly rules: ConfigMergeRules | undefined;
  /** True when managed settings enable or configure the extension: lower levels may only tighten. */
  readonly floor: boolean;
  /** The managed section parsed alone (its values and the schema's defaults): the floor of each key. */
  readonly floorValues: unknown;
  /**
   * The level whose section is the floor: "managed" (default), or "user" when the user's settings
   * enable or configure the extension and only the project's files are merged against them.
   */
  readonly floorLevel?: SettingsLevelName;
  /** Resolves a root of a `"narrower"` list to an absolute real path (`undefined`: cannot be checked). */
  readonly resolveRoot: (root: unknown) => string | undefined;
  /** True when the resolved root `inner` lies inside the resolved root `outer`. */
  readonly isWithin: (outer: string, inner: string) => boolean;
}

/** The merged section, where each key came from, and what a lower level was not allowed to do. */
export interface RuleMergeResult {
  readonly value: Record<string, unknown>;
  /** Per dotted key path, the levels whose values the effective value is made of, strongest first. */
  readonly origins: ReadonlyMap<string, readonly SettingsLocation[]>;
  readonly problems: readonly MergeProblem[];
}

type Path = readonly (string | number)[];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/**
 * Merges one extension's section across levels with the extension's rules (see `ConfigMergeRule`).
 * Contract: `sections` are strongest first and each is a plain object. Without a floor, ruled keys
 * merge by precedence except `"union"` lists; with a floor, a lower level that loosens a key is a
 * problem located at its own value, and the key keeps the floor (or the strictest lower value that
 * respects it). Keys without a rule merge as `mergeSettings` merges any config value.
 */
export function mergeSection(sections: readonly LevelValue[], options: RuleMergeOptions): RuleMergeResult {
  const origins = new Map<string, SettingsLocation[]>();
  const problems: MergeProblem[] = [];
  const level = options.floorLevel ?? "managed";
  const isFloor = (c: LevelValue) => c.level.level === level;
  const label = level === "managed" ? "managed settings" : "your user settings";
  const ctx: Ctx = { isFloor, label, options, origins, problems };
  const value = mergeObject(
    ctx,
    { contributions: sections, rules: options.rules, floorValues: options.floorValues },
    [],
  );
  return { value, origins, problems };
}

interface Ctx {
  /** Whether a contribution is the floor level's own. */
  readonly isFloor: (c: LevelValue) => boolean;
  /** How messages name the floor level ("managed settings", "your user settings"). */
  readonly label: string;
  readonly options: RuleMergeOptions;
  readonly origins: Map<string, SettingsLocation[]>;
  readonly problems: MergeProblem[];
}

interface ObjectInput {
  readonly contributions: readonly LevelValue[];
  readonly rules: ConfigMergeRules | undefined;
  readonly floorValues: unknown;
}

function mergeObject(ctx: Ctx, input: ObjectInput, path: Path): Record<string, unknown> {
  const keys = new Set(input.contributions.flatMap((c) => Object.keys(c.value as object)));
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const present = input.contributions.flatMap(({ level, value }) =>
      Object.hasOwn(value as object, key) ? [{ level, value: (value as Record<string, unknown>)[key] }] : [],
    );
    // Own keys only: a section's `constructor` or `toString` must not find Object.prototype's.
    const floor = ownValue(input.floorValues, key);
    const rule = ownValue(input.rules, key) as ConfigMergeRule | undefined;
    const merged = mergeKey(ctx, { present, rule, floor }, [...path, key]);
    if (merged !== NONE)
      Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function ownValue(record: unknown, key: string): unknown {
  return isObject(record) && Object.hasOwn(record, key) ? record[key] : undefined;
}

const NONE = Symbol("none");

interface KeyInput {
  /** The levels that set this key, strongest first (never empty). */
  readonly present: readonly LevelValue[];
  readonly rule: ConfigMergeRule | undefined;
  /** The floor's value of this key (managed's, else the schema default), when there is a floor. */
  readonly floor: unknown;
}

function mergeKey(ctx: Ctx, input: KeyInput, path: Path): unknown {
  const { present, rule } = input;
  const strongest = present[0] as LevelValue;
  if (rule === undefined) {
    record(ctx, path, present);
    return mergeValues(present, path.at(-1)).value;
  }
  if (rule === "union" && present.every((c) => Array.isArray(c.value))) {
    record(ctx, path, present);
    return unionOf(present).value;
  }
  // A value of another shape than its rule merges (a `false` for a list or for an object of
  // fields, which a schema may accept as "off") cannot be held to the rule: below a floor it is
  // pinned, or the strongest level's value would replace the floor's whole.
  const shaped = rule === "union" ? Array.isArray : typeof rule === "object" && "fields" in rule ? isObject : undefined;
  if (shaped && ctx.options.floor && !present.every((c) => shaped(c.value))) return pinned(ctx, input, path);
  if (typeof rule === "object" && "fields" in rule) {
    if (!present.every((c) => isObject(c.value))) return winner(ctx, path, strongest);
    const floorValues = ctx.options.floor ? input.floor : undefined;
    return mergeObject(ctx, { contributions: present, rules: rule.fields, floorValues }, path);
  }
  if (!ctx.options.floor || rule === "override" || rule === "union") return winner(ctx, path, strongest);
  if (rule === "pinned") return pinned(ctx, input, path);
  if (rule === "narrower") return narrower(ctx, input, path);
  return stricter(ctx, input, rule.stricter, path);
}

function pinned(ctx: Ctx, { present, floor }: KeyInput, path: Path): unknown {
  const managed = present.find(ctx.isFloor);
  const expected = managed ? managed.value : floor;
  for (const lower of present.filter((c) => !ctx.isFloor(c))) {
    if (isDeepStrictEqual(lower.value, expected)) continue;
    const kept = managed ? `${ctx.label} set it to ${show(managed.value)}` : `${ctx.label} keep its default`;
    problem(ctx, lower, path, `only ${ctx.label} may set this key (${kept}); remove it from this file`);
  }
  return winner(ctx, path, managed);
}

function stricter(ctx: Ctx, { present, floor }: KeyInput, order: readonly unknown[], path: Path): unknown {
  const rank = (v: unknown) => order.findIndex((o) => isDeepStrictEqual(o, v));
  const managed = present.find(ctx.isFloor);
  const floorValue = managed ? managed.value : floor;
  const floorRank = floorValue === undefined ? 0 : rank(floorValue);
  let best: LevelValue | undefined = managed;
  // With no floor value at all (managed silent, no default), any lower value raises it.
  let bestRank = managed === undefined && floorValue === undefined ? -1 : floorRank;
  for (const lower of present.filter((c) => !ctx.isFloor(c))) {
    const r = rank(lower.value);
    if (floorRank < 0 || r < 0) {
      if (isDeepStrictEqual(lower.value, floorValue)) continue;
      problem(ctx, lower, path, `cannot be changed below ${ctx.label} (the floor is ${show(floorValue)})`);
    } else if (r < floorRank) {
      const allowed = order.slice(floorRank).map(show).join(", ");
      problem(
        ctx,
        lower,
        path,
        `${show(lower.value)} is looser than ${ctx.label === "managed settings" ? "the managed floor" : `the floor ${ctx.label} set`} ${show(floorValue)}; below ${ctx.label} only ${allowed} may be chosen`,
      );
    } else if (r > bestRank) {
      best = lower;
      bestRank = r;
    }
  }
  return winner(ctx, path, best);
}

function narrower(ctx: Ctx, { present, floor }: KeyInput, path: Path): unknown {
  const { resolveRoot, isWithin } = ctx.options;
  const managed = present.find(ctx.isFloor);
  const floorRoots = managed ? managed.value : (floor ?? ["."]);
  const outer = Array.isArray(floorRoots) ? floorRoots.map(resolveRoot) : [];
  const lowers = present.filter((c) => !ctx.isFloor(c));
  let ok = true;
  for (const lower of lowers) {
    if (!Array.isArray(lower.value)) {
      problem(ctx, lower, path, "expected a list of roots");
      ok = false;
      continue;
    }
    lower.value.forEach((root, index) => {
      const inner = resolveRoot(root);
      if (inner !== undefined && outer.some((o) => o !== undefined && isWithin(o, inner))) return;
      const listed =
        !managed && floor === undefined
          ? "the project directory, by default"
          : Array.isArray(floorRoots)
            ? floorRoots.map(show).join(", ")
            : show(floorRoots);
      problem(
        ctx,
        lower,
        [...path, index],
        `${show(root)} is not inside the ${ctx.label === "managed settings" ? "managed roots" : `roots ${ctx.label} allow`} (${listed}); below ${ctx.label} roots may only narrow`,
      );
      ok = false;
    });
  }
  return winner(ctx, path, ok && lowers[0] ? lowers[0] : managed);
}

function winner(ctx: Ctx, path: Path, chosen: LevelValue | undefined): unknown {
  if (chosen === undefined) return NONE;
  record(ctx, path, [chosen]);
  return structuredClone(chosen.value);
}

function record(ctx: Ctx, path: Path, from: readonly LevelValue[]): void {
  const key = path.join(".");
  ctx.origins.set(
    key,
    from.map((c) => at(ctx, c, path)),
  );
}

function at(ctx: Ctx, c: LevelValue, path: Path): SettingsLocation {
  return locationOf(c.level, ["config", ctx.options.name, ...path]);
}

function problem(ctx: Ctx, c: LevelValue, path: Path, message: string): void {
  ctx.problems.push({ at: at(ctx, c, path), path, message });
}
