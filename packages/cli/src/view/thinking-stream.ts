/**
 * Streams one thinking block as a single shortened line, `thinking: …`, that fills in as the
 * deltas arrive: whitespace collapsed, cut after `THINKING_STREAM_WIDTH` columns with `…`, after
 * which the rest of the block is not shown.
 */
import { oneLine, type Style } from "./ansi.ts";
import { incompleteTailStart } from "./stream-sanitizer.ts";
import { displayWidth, takeWidth, truncateToWidth } from "./text-width.ts";

/** Columns of thinking text shown per block (after the `thinking: ` label) before it is cut. */
export const THINKING_STREAM_WIDTH = 200;

/** Raw characters kept per block; beyond this (a flood of whitespace) the line is cut. */
const MAX_RAW = THINKING_STREAM_WIDTH * 8;

const LABEL = "thinking: ";

/** One thinking block being streamed. */
export interface ThinkingStream {
  /**
   * The text to write for `delta` (styled).
   * `rowOpen`: whether the cursor is after text on its row (the line this block may have to end).
   */
  push(delta: string, rowOpen: boolean): string;
  /** The text that ends the line; empty when the block showed nothing or was already cut. */
  end(rowOpen: boolean): string;
}

/**
 * Creates the stream of one thinking block, styled with `style` (the view dims it).
 * Contract: the concatenation of the outputs, unstyled, is
 * `thinking: ${truncateToWidth(oneLine(block), THINKING_STREAM_WIDTH)}\n`, or nothing for a blank
 * block; at most one column is held back (the last one, until it is known whether `…` replaces it).
 * The line ends with `\n` as soon as it is cut, so the status line can come back below it.
 */
export function createThinkingStream(style: Style): ThinkingStream {
  let raw = "";
  let written = "";
  let done = false;

  const emit = (options: { line: string; ends: boolean; rowOpen: boolean }): string => {
    const out = options.line.startsWith(written) ? options.line.slice(written.length) : "";
    written = options.line;
    // A row someone else closed meanwhile stays closed: no blank row.
    return `${style(out)}${options.ends && (out !== "" || options.rowOpen) ? "\n" : ""}`;
  };

  return {
    push(delta, rowOpen) {
      if (done) return "";
      raw += delta;
      const overflow = raw.length > MAX_RAW;
      const kept = raw.slice(0, MAX_RAW);
      const body = oneLine(kept.slice(0, incompleteTailStart(kept)));
      if (body === "") return "";
      if (overflow || displayWidth(body) > THINKING_STREAM_WIDTH) {
        done = true;
        const shown = overflow ? `${takeWidth(body, THINKING_STREAM_WIDTH - 1)}…` : body;
        const line = `${LABEL}${truncateToWidth(shown, THINKING_STREAM_WIDTH)}`;
        return emit({ line, ends: true, rowOpen });
      }
      return emit({ line: `${LABEL}${takeWidth(body, THINKING_STREAM_WIDTH - 1)}`, ends: false, rowOpen });
    },
    end(rowOpen) {
      if (done) return "";
      done = true;
      const body = oneLine(raw);
      return body === "" ? "" : emit({ line: `${LABEL}${body}`, ends: true, rowOpen });
    },
  };
}
