/**
 * Streams one thinking block as a single row, `✻ thinking: …`, that fills in as the deltas arrive:
 * whitespace collapsed, cut at the row's width with `…`, after which the rest is not shown.
 */
import { oneLine, type Style } from "./ansi.ts";
import { incompleteTailStart } from "./stream-sanitizer.ts";
import { displayWidth, takeWidth, truncateToWidth } from "./text-width.ts";

/** What a thinking row starts with. */
export const THINKING_LABEL = "✻ thinking: ";

/** One thinking block being streamed. */
export interface ThinkingStream {
  /**
   * The text to write for `delta` (styled).
   * `rowOpen`: whether the cursor is after text on its row (the row this block may have to end).
   */
  push(delta: string, rowOpen: boolean): string;
  /** The text that ends the row; empty when the block showed nothing or was already cut. */
  end(rowOpen: boolean): string;
}

/** The row a whole thinking block becomes, unstyled; empty for a blank block. */
export function thinkingRow(text: string, width: number): string {
  const body = oneLine(text);
  return body === "" ? "" : truncateToWidth(`${THINKING_LABEL}${body}`, width);
}

/**
 * Creates the stream of one thinking block `width` columns wide, styled with `style`.
 * Contract: the concatenation of the outputs, unstyled, is `thinkingRow(block, width)` then `\n`,
 * or nothing for a blank block; at most one column is held back (the last, until it is known
 * whether `…` replaces it). The row ends as soon as it is cut, so the region can come back below.
 */
export function createThinkingStream(options: { width: number; style: Style }): ThinkingStream {
  const room = Math.max(2, options.width - displayWidth(THINKING_LABEL));
  const maxRaw = room * 8;
  let raw = "";
  let written = "";
  let done = false;

  const emit = (line: string, ends: boolean, rowOpen: boolean): string => {
    const out = line.startsWith(written) ? line.slice(written.length) : "";
    written = line;
    // A row someone else closed meanwhile stays closed: no blank row.
    return `${options.style(out)}${ends && (out !== "" || rowOpen) ? "\n" : ""}`;
  };

  return {
    push(delta, rowOpen) {
      if (done) return "";
      raw += delta;
      const overflow = raw.length > maxRaw;
      const kept = raw.slice(0, maxRaw);
      const body = oneLine(kept.slice(0, incompleteTailStart(kept)));
      if (body === "") return "";
      if (overflow || displayWidth(body) > room) {
        done = true;
        return emit(`${THINKING_LABEL}${takeWidth(body, room - 1)}…`, true, rowOpen);
      }
      return emit(`${THINKING_LABEL}${takeWidth(body, room - 1)}`, false, rowOpen);
    },
    end(rowOpen) {
      if (done) return "";
      done = true;
      const row = thinkingRow(raw, options.width);
      return row === "" ? "" : emit(row, true, rowOpen);
    },
  };
}
