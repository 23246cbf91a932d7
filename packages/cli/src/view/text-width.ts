/**
 * Display width of terminal text, roughly: East Asian wide characters and most emoji take two
 * columns, combining marks and zero-width characters none, escape sequences none.
 */

/** Code point ranges (inclusive) that take two columns. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/** Code point ranges (inclusive) that take no column of their own. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences take no columns
const ESCAPE_AT_START = /^\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/;

function inRanges(cp: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** Columns one code point takes in a terminal (0, 1 or 2). */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if (inRanges(codePoint, ZERO)) return 0;
  return inRanges(codePoint, WIDE) ? 2 : 1;
}

/** Printable ASCII only: one column per character, no escapes to skip (the common case, made fast). */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` takes in a terminal; escape sequences count as zero. */
export function displayWidth(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { chunk, isEscape } of chunks(text)) if (!isEscape) width += charWidth(chunk.codePointAt(0)!);
  return width;
}

/**
 * Cuts `text` to at most `width` columns, ending a cut with `…`.
 * Contract: escape sequences are kept (they take no columns) and a cut string that contained any
 * ends with a reset, so a cut never leaks a color into what follows.
 */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return "";
  let out = "";
  let used = 0;
  let styled = false;
  for (const { chunk, isEscape } of chunks(text)) {
    if (isEscape) {
      styled = true;
      out += chunk;
      continue;
    }
    const w = charWidth(chunk.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += chunk;
    used += w;
  }
  return `${out}…${styled ? "\u001b[0m" : ""}`;
}

/**
 * The longest start of `text` that fits in `width` columns, with no ellipsis.
 * Contract: never splits a wide character; escape sequences are kept.
 */
export function takeWidth(text: string, width: number): string {
  if (PLAIN_ASCII.test(text)) return text.slice(0, Math.max(0, width));
  let out = "";
  let used = 0;
  for (const { chunk, isEscape } of chunks(text)) {
    const w = isEscape ? 0 : charWidth(chunk.codePointAt(0)!);
    if (used + w > width) break;
    out += chunk;
    used += w;
  }
  return out;
}

/** Splits text into escape sequences and single code points. */
function* chunks(text: string): Generator<{ chunk: string; isEscape: boolean }> {
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\u001b") {
      const match = ESCAPE_AT_START.exec(text.slice(i, i + 256));
      if (match) {
        yield { chunk: match[0], isEscape: true };
        i += match[0].length;
        continue;
      }
    }
    const cp = text.codePointAt(i)!;
    const chunk = String.fromCodePoint(cp);
    yield { chunk, isEscape: false };
    i += chunk.length;
  }
}
