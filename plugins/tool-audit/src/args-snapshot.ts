/**
 * What a call's arguments were when it started, to tell at its end whether the arguments that ran
 * differ: plain JSON data as a copy (objects and arrays copied, strings shared: a string never
 * changes, so a 1 MiB `content` costs nothing to keep), anything else as its JSON text.
 */
export type ArgsSnapshot = { data: unknown } | { json: string | undefined };

/** Deeper values are kept as JSON text (and a cycle never recurses for ever). */
const MAX_DEPTH = 64;

/** Returned by the walks below for a value outside the plain JSON data model. */
const NOT_PLAIN: unique symbol = Symbol("not plain JSON");

function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A plain object: what JSON.parse makes, with no `toJSON` to call. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/**
 * A copy of `value` if it is plain JSON data whose JSON text means exactly it (strings, finite
 * numbers, booleans, null, dense arrays and plain objects without `undefined` fields); else NOT_PLAIN.
 */
function plainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : NOT_PLAIN;
  if (typeof value !== "object" || depth > MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return NOT_PLAIN;
      const item = plainCopy(value[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  if (!isPlainObject(value)) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainCopy(value[key], depth + 1);
    if (item === NOT_PLAIN || item === undefined) return NOT_PLAIN;
    // "__proto__" must be an own field of the copy, as JSON.parse makes it.
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true });
    else out[key] = item;
  }
  return out;
}

/** Takes the snapshot of a call's arguments at its start. */
export function snapshotArgs(args: unknown): ArgsSnapshot {
  const data = plainCopy(args, 0);
  return data === NOT_PLAIN ? { json: toJson(args) } : { data };
}

/**
 * Whether plain data `a` (a snapshot) and the live value `b` are the same JSON data, whatever the
 * key order; NOT_PLAIN when `b` is not plain JSON data (the caller then compares JSON texts).
 */
function sameAsData(a: unknown, b: unknown, depth: number): boolean | typeof NOT_PLAIN {
  if (b === null || typeof b === "string" || typeof b === "boolean") return a === b;
  if (typeof b === "number") return Number.isFinite(b) ? a === b : NOT_PLAIN;
  if (typeof b !== "object" || depth > MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(b)) {
    for (let i = 0; i < b.length; i++) if (!(i in b)) return NOT_PLAIN;
    if (!Array.isArray(a)) return false;
    let same = a.length === b.length;
    for (let i = 0; i < b.length; i++) {
      const item = sameAsData(same ? a[i] : undefined, b[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      if (!item) same = false;
    }
    return same;
  }
  if (!isPlainObject(b)) return NOT_PLAIN;
  const keys = Object.keys(b);
  const record = a !== null && typeof a === "object" && !Array.isArray(a) ? (a as Record<string, unknown>) : undefined;
  let same = record !== undefined && Object.keys(record).length === keys.length;
  for (const key of keys) {
    const value = b[key];
    if (value === undefined) return NOT_PLAIN;
    const has = same && record !== undefined && Object.hasOwn(record, key);
    const item = sameAsData(has ? record[key] : undefined, value, depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (!has || !item) same = false;
  }
  return same;
}

/** Deep equality of JSON data, whatever the key order. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameData(ra[k], rb[k]));
}

/** Whether two JSON texts hold different data (either missing: different). */
function jsonDiffers(startJson: string | undefined, endJson: string | undefined): boolean {
  if (startJson === undefined || endJson === undefined) return true;
  // Fast path: byte-equal JSON. Otherwise compare as data, since schema parsing may reorder keys.
  return endJson !== startJson && !sameData(JSON.parse(startJson), JSON.parse(endJson));
}

/**
 * Whether the arguments that ran differ, as JSON data, from the snapshot taken at the start.
 * Contract: the same answer as comparing the two JSON texts as data (key order aside); plain data
 * on both sides is compared without serializing either.
 */
export function argsChanged(start: ArgsSnapshot, args: unknown): boolean {
  if ("data" in start) {
    const same = sameAsData(start.data, args, 0);
    if (same !== NOT_PLAIN) return !same;
    return jsonDiffers(toJson(start.data), toJson(args));
  }
  return jsonDiffers(start.json, toJson(args));
}
