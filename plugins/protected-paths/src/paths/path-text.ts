/**
 * Code point ranges no path may contain: C0 and C1 controls, DEL, and the invisible or
 * direction-changing format characters that make a path look like another one (soft hyphen,
 * Arabic letter mark, Mongolian vowel separator, zero-width and bidi marks U+200B–U+200F,
 * line/paragraph separators and bidi embeddings U+2028–U+202E, word joiner, invisible operators
 * and bidi isolates U+2060–U+206F, BOM).
 */
const FORBIDDEN_RANGES: readonly (readonly [number, number])[] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x61c, 0x61c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0xfeff, 0xfeff],
];

function isForbidden(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return FORBIDDEN_RANGES.some(([from, to]) => cp >= from && cp <= to);
}

/** Any of `FORBIDDEN_RANGES` (one scan, no allocation: the common path holds none). */
const ANY_FORBIDDEN = new RegExp(
  `[${FORBIDDEN_RANGES.map(([from, to]) => `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`).join("")}]`,
  "u",
);
/** The longest path a system call takes (Linux's PATH_MAX less its NUL): a longer one names no file. */
export const MAX_PATH_BYTES = 4095;

/** Something other than white space (what `trim` removes). */
const NOT_BLANK = /\S/;

/** Why a path was refused before it was even resolved. */
export interface PathTextProblem {
  rule: "non-string path" | "empty path" | "path too long" | "NUL byte" | "control character";
  /** The rest of the one-sentence reason, e.g. "the path is empty". */
  why: string;
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * Checks the raw text of a path before any resolution.
 * Contract: returns `undefined` for a usable string; otherwise the rule and why. A NUL byte is
 * reported as such (the OS would truncate the path there), before other control characters. A
 * path longer than `MAX_PATH_BYTES` is refused: no system call opens it, and matching the rules
 * against tens of thousands of segments took minutes on the host's one thread.
 */
export function checkPathText(value: unknown): PathTextProblem | undefined {
  if (typeof value !== "string") {
    return { rule: "non-string path", why: `the path is ${kindOf(value)}, not a string; pass the path as a string` };
  }
  if (!NOT_BLANK.test(value)) return { rule: "empty path", why: "the path is empty; pass a file or directory path" };
  // Each UTF-16 unit is at most 3 bytes of UTF-8: only a long string needs counting.
  if (value.length > MAX_PATH_BYTES / 3 && Buffer.byteLength(value, "utf8") > MAX_PATH_BYTES) {
    return {
      rule: "path too long",
      why: `the path is longer than ${MAX_PATH_BYTES} bytes, more than any system call accepts; spell it shorter`,
    };
  }
  if (!ANY_FORBIDDEN.test(value)) return undefined;
  if (value.includes("\0")) {
    return { rule: "NUL byte", why: "the path contains a NUL byte, which no file path may contain" };
  }
  const bad = [...value].find(isForbidden);
  if (bad !== undefined) {
    return {
      rule: "control character",
      why: `the path contains the invisible or control character ${codePoint(bad)}; spell the path without it`,
    };
  }
  return undefined;
}

const MAX_SHOWN = 160;

/**
 * A path made safe to quote in a message: forbidden characters become `\u{...}` escapes, quotes and
 * backslashes are escaped, and long paths are shortened in the middle.
 * Contract: the result never contains a control or invisible character.
 */
export function showPath(value: string): string {
  const short = value.length > MAX_SHOWN ? `${value.slice(0, 100)}…${value.slice(-50)}` : value;
  const escaped = [...short]
    .map((c) => {
      if (c === "\\" || c === '"') return `\\${c}`;
      // A byte of a name that is not UTF-8 (kept as U+DC80..U+DCFF, see scan/raw-fs.ts) shown as the byte.
      const code = c.codePointAt(0)!;
      if (code >= 0xdc80 && code <= 0xdcff) return `\\x${(code - 0xdc00).toString(16).toUpperCase()}`;
      return isForbidden(c) ? `\\u{${code.toString(16)}}` : c;
    })
    .join("");
  return `"${escaped}"`;
}
