/**
 * Sanitizes text that arrives in pieces. An escape sequence, a `\r\n` or a surrogate pair split
 * between two pieces is held back until it is whole, so the pieces sanitize as the whole would.
 */
import { sanitize } from "./ansi.ts";

/** Longest tail held back waiting for the end of an escape sequence; past it the tail is let go. */
const MAX_HELD = 256;

/** An escape sequence that is complete at the start of the text (CSI, terminated OSC, or ESC + one char). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const COMPLETE_ESCAPE = /^\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[^[\]])/;

/**
 * Where the part of `text` that may still change meaning begins: a trailing escape sequence not
 * yet complete, a trailing `\r` (it may be half of `\r\n`) or a trailing high surrogate.
 * Contract: returns `text.length` when everything can be sanitized now.
 */
export function incompleteTailStart(text: string): number {
  let cut = text.length;
  const last = text.charCodeAt(text.length - 1);
  if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) cut = text.length - 1;
  const esc = text.lastIndexOf("\u001b");
  if (esc >= 0 && text.length - esc <= MAX_HELD && !COMPLETE_ESCAPE.test(text.slice(esc))) cut = Math.min(cut, esc);
  return cut;
}

/** Sanitizes streamed pieces; see `createStreamSanitizer`. */
export interface StreamSanitizer {
  /** The sanitized text of `piece` that can be printed now. */
  push(piece: string): string;
  /** Whatever was held back, sanitized; the stream ends here. */
  flush(): string;
}

/**
 * Creates a sanitizer for one stream of pieces.
 * Contract: the concatenation of every `push` and the final `flush` equals `sanitize` of the
 * concatenated pieces, except for an escape sequence left open longer than 256 characters.
 */
export function createStreamSanitizer(): StreamSanitizer {
  let held = "";
  return {
    push(piece) {
      const text = held + piece;
      const cut = incompleteTailStart(text);
      held = text.slice(cut);
      return sanitize(text.slice(0, cut));
    },
    flush() {
      const rest = sanitize(held);
      held = "";
      return rest;
    },
  };
}
