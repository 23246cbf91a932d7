/**
 * Streams one text block of an assistant message to the terminal as its deltas arrive, writing
 * exactly the lines `describeAssistant` prints for the whole block: outer blank lines dropped,
 * trailing spaces of each line dropped, nothing else changed. Long lines are left to the terminal
 * to wrap.
 */
import { createStreamSanitizer } from "./stream-sanitizer.ts";

/** One text block being streamed. */
export interface TextStream {
  /**
   * The text to write for `delta`.
   * `rowOpen`: whether the cursor is after text on its row (a line this block may have to end).
   */
  push(delta: string, rowOpen: boolean): string;
  /** The text that ends the block: a newline when its last line is still open. */
  end(rowOpen: boolean): string;
}

const WHITESPACE = /\s/;

/**
 * Creates the stream of one text block.
 * Contract: the concatenation of the outputs, for a row closed at the start and never written to
 * by anyone else meanwhile, is the block's `describeAssistant` lines each followed by `\n`.
 * Whitespace is held back until text follows it on the same line, so a line never ends in spaces
 * and blank lines at the end of the block are never written. A line ends (`\n`) as soon as its
 * newline arrives, and only when the row is still open: a row someone else closed stays closed,
 * and the line goes on at the start of the next row.
 */
export function createTextStream(): TextStream {
  const sanitizer = createStreamSanitizer();
  let started = false;
  let atLineStart = true;
  let blankLines = 0;
  let spaces = "";

  function write(text: string, rowOpen: boolean): string {
    let out = "";
    let open = rowOpen;
    for (const ch of text) {
      if (ch === "\n") {
        spaces = "";
        if (!started) continue;
        if (!atLineStart) {
          if (open) out += "\n";
          open = false;
          atLineStart = true;
        } else blankLines += 1;
      } else if (WHITESPACE.test(ch)) {
        spaces += ch;
      } else {
        // A line someone else cut (the row was closed under it) goes on without the space it broke at.
        if (!atLineStart && !open) spaces = "";
        out += `${"\n".repeat(blankLines)}${spaces}${ch}`;
        blankLines = 0;
        spaces = "";
        started = true;
        atLineStart = false;
        open = true;
      }
    }
    return out;
  }

  return {
    push: (delta, rowOpen) => write(sanitizer.push(delta), rowOpen),
    end(rowOpen) {
      const out = write(sanitizer.flush(), rowOpen);
      const open = out === "" ? rowOpen : !out.endsWith("\n");
      return !atLineStart && open ? `${out}\n` : out;
    },
  };
}
