import type { SettingsLevel } from "./settings-levels.ts";

/** One level's value at some path, the input of a merge. */
export interface Contribution {
  readonly level: SettingsLevel;
  readonly value: unknown;
}

/**
 * Where each part of a merged value came from.
 * `whole`: the value is a copy of `level`'s value at the same path (and so is everything below it).
 * `object`: merged key by key; `level` is the strongest level with an object here.
 * `union`: a deny list; item `i` of the merged list is item `items[i].index` of `items[i].level`'s list.
 */
export type Provenance =
  | { readonly kind: "whole"; readonly level: SettingsLevel }
  | { readonly kind: "object"; readonly level: SettingsLevel; readonly keys: ReadonlyMap<string, Provenance> }
  | {
      readonly kind: "union";
      readonly level: SettingsLevel;
      readonly items: readonly { level: SettingsLevel; index: number }[];
    };

/** A merged value with the provenance of every part of it. */
export interface MergedValue {
  readonly value: unknown;
  readonly provenance: Provenance;
}

/** A value's origin: the level that wrote it and its path within that level's file. */
export interface ValueOrigin {
  readonly level: SettingsLevel;
  readonly path: readonly (string | number)[];
}

/**
 * Merges the values several levels give for one path (see `mergeSettings` for the rules).
 * Contract: `contributions` is non-empty and strongest first; the result shares nothing with the
 * inputs (leaves are cloned), and keys such as `__proto__` stay plain own data properties.
 */
export function mergeValues(contributions: readonly Contribution[], key?: string | number): MergedValue {
  const top = contributions[0] as Contribution;
  if (isPlainObject(top.value)) return mergeObjects(contributions.filter((c) => isPlainObject(c.value)));
  if (Array.isArray(top.value) && typeof key === "string" && key.startsWith("deny")) {
    return unionOf(contributions.filter((c) => Array.isArray(c.value)));
  }
  return { value: structuredClone(top.value), provenance: { kind: "whole", level: top.level } };
}

function mergeObjects(objects: readonly Contribution[]): MergedValue {
  const keyOrder = new Set(objects.flatMap((c) => Object.keys(c.value as object)));
  const value: Record<string, unknown> = {};
  const keys = new Map<string, Provenance>();
  for (const key of keyOrder) {
    const below = objects.flatMap(({ level, value: object }) =>
      Object.hasOwn(object as object, key) ? [{ level, value: (object as Record<string, unknown>)[key] }] : [],
    );
    const merged = mergeValues(below, key);
    Object.defineProperty(value, key, { value: merged.value, enumerable: true, writable: true, configurable: true });
    keys.set(key, merged.provenance);
  }
  return { value, provenance: { kind: "object", level: (objects[0] as Contribution).level, keys } };
}

/**
 * The union of several levels' lists, strongest level's entries first, duplicates kept once.
 * Contract: every contribution's value is an array; items are cloned.
 */
export function unionOf(arrays: readonly Contribution[]): MergedValue {
  const seen = new Set<string>();
  const value: unknown[] = [];
  const items: { level: SettingsLevel; index: number }[] = [];
  for (const { level, value: list } of arrays) {
    (list as unknown[]).forEach((item, index) => {
      const identity = JSON.stringify(item) ?? String(item);
      if (seen.has(identity)) return;
      seen.add(identity);
      value.push(structuredClone(item));
      items.push({ level, index });
    });
  }
  return { value, provenance: { kind: "union", level: (arrays[0] as Contribution).level, items } };
}

/**
 * Finds which level wrote the merged value at `path`, and where in that level's file it is.
 * Contract: a path that goes below what was merged resolves to the deepest value that exists on the
 * way (the object a missing key would belong to), so a "missing key" error still points somewhere
 * useful. Paths are relative to the merged root.
 */
export function originOf(provenance: Provenance, path: readonly (string | number)[]): ValueOrigin {
  let node = provenance;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string | number;
    const here = path.slice(0, i);
    if (node.kind === "whole") return { level: node.level, path };
    if (node.kind === "union") {
      const item = node.items[toIndex(segment)];
      if (item === undefined) return { level: node.level, path: here };
      return { level: item.level, path: [...here, item.index, ...path.slice(i + 1)] };
    }
    const child = node.keys.get(String(segment));
    if (child === undefined) return { level: node.level, path: here };
    node = child;
  }
  return { level: node.level, path };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function toIndex(segment: string | number): number {
  if (typeof segment === "number") return segment;
  return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
}
