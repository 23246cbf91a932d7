import { GatehouseError } from "./errors.ts";
import { findDuplicateKey } from "./json-duplicate-key.ts";
import { findJsonSyntaxError } from "./json-syntax-error.ts";

/** A 1-based position in a source text; columns count UTF-16 code units. */
export interface JsonPosition {
  line: number;
  column: number;
}

/** A parsed JSON document that can say where each of its values was written. */
export interface JsonSource {
  /** The parsed value, exactly what `JSON.parse` returns for the same text. */
  readonly value: unknown;
  /** Where the value at `path` starts; a missing key or index resolves to its closest existing parent. */
  locate(path: readonly (string | number)[]): JsonPosition;
}

/** Member offsets of one container: value offset by key (last duplicate wins) or by index. */
type Members = Map<string, number> | number[];

/**
 * Parses JSON text and keeps the means to locate every value, so errors can point at them.
 * Contract: the value is `JSON.parse(text)` itself (identical values, native speed); text that
 * `JSON.parse` rejects throws GatehouseError `GH_JSON_SYNTAX` with
 * `file:line:column: <found> — expected <expected>`, and so does a key written twice in one object
 * (which `JSON.parse` would resolve silently to the last). Positions are found lazily: `locate` indexes only
 * the containers along the paths asked for, once each, so memory stays proportional to what is asked.
 */
export function parseJsonSource(text: string, file: string): JsonSource {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = findJsonSyntaxError(text);
    if (problem === undefined) {
      throw new GatehouseError("GH_JSON_SYNTAX", `${file}: ${(error as Error).message}`, { cause: error });
    }
    const { line, column } = positionOf(lineStartsOf(text.slice(0, problem.offset)), problem.offset);
    const message = `${file}:${line}:${column}: ${problem.found} — expected ${problem.expected}`;
    throw new GatehouseError("GH_JSON_SYNTAX", message, { cause: error });
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    const { line, column } = positionOf(lineStartsOf(text.slice(0, duplicate.offset)), duplicate.offset);
    const message = `${file}:${line}:${column}: ${JSON.stringify(duplicate.key)} a second time in one object — expected each key once (JSON would keep only the last)`;
    throw new GatehouseError("GH_JSON_SYNTAX", message);
  }
  const index = new Map<number, Members>();
  let lineStarts: Int32Array | undefined;
  return {
    value,
    locate(path) {
      let at = skipWhitespace(text, 0);
      for (const segment of path) {
        const c = text[at];
        if (c !== "{" && c !== "[") break;
        const members = index.get(at) ?? indexMembers(text, at);
        index.set(at, members);
        const next = Array.isArray(members) ? members[arrayIndex(segment)] : members.get(String(segment));
        if (next === undefined) break;
        at = next;
      }
      lineStarts ??= lineStartsOf(text);
      return positionOf(lineStarts, at);
    },
  };
}

/** Lists where each member value of the (valid) container at `at` starts. */
function indexMembers(text: string, at: number): Members {
  const isObject = text[at] === "{";
  const keys = new Map<string, number>();
  const items: number[] = [];
  let i = skipWhitespace(text, at + 1);
  if (text[i] === "}" || text[i] === "]") return isObject ? keys : items;
  for (;;) {
    if (isObject) {
      const end = skipString(text, i);
      const raw = text.slice(i, end);
      const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      i = skipWhitespace(text, skipWhitespace(text, end) + 1);
      keys.set(key, i);
    } else items.push(i);
    i = skipWhitespace(text, skipValue(text, i));
    if (text[i] !== ",") return isObject ? keys : items;
    i = skipWhitespace(text, i + 1);
  }
}

const STRUCTURE = /[[\]{}"]/g;
const PRIMITIVE_END = /[\s,\]}]/g;

/** The offset just after the (valid) value starting at `at`. */
function skipValue(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return skipString(text, at);
  if (c !== "{" && c !== "[") {
    PRIMITIVE_END.lastIndex = at;
    return PRIMITIVE_END.exec(text)?.index ?? text.length;
  }
  let depth = 0;
  STRUCTURE.lastIndex = at;
  for (;;) {
    const match = STRUCTURE.exec(text);
    if (match === null) return text.length;
    const ch = match[0];
    if (ch === '"') STRUCTURE.lastIndex = skipString(text, match.index);
    else if (ch === "{" || ch === "[") depth++;
    else if (--depth === 0) return match.index + 1;
  }
}

/** The offset just after the (valid) string starting at `at`. */
function skipString(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function skipWhitespace(text: string, at: number): number {
  let c = text.charCodeAt(at);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
  return at;
}

function arrayIndex(segment: string | number): number {
  if (typeof segment === "number") return segment;
  return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
}

/** The 1-based line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): JsonPosition {
  return positionOf(lineStartsOf(text.slice(0, offset)), offset);
}

function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts[line++] = i + 1;
  return starts;
}

function positionOf(lineStarts: Int32Array, offset: number): JsonPosition {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 };
}
