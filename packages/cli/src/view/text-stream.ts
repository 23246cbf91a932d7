/**
 * Streams one text block of an assistant message as its deltas arrive, word-wrapped to the row
 * and set off from tool calls: `● ` before its first row, its other rows indented under it. Writes
 * exactly the rows `describeAssistant` prints for the whole block.
 */
import { createStreamSanitizer } from "./stream-sanitizer.ts";
import { createWordWrapper, type WrapLayout } from "./word-wrap.ts";

/** One text block being streamed. */
export interface TextStream {
  /**
   * The text to write for `delta`.
   * `rowOpen`: whether the cursor is after text on its row (a row this block may have to end).
   */
  push(delta: string, rowOpen: boolean): string;
  /** The text that ends the block: a newline when its last row is still open. */
  end(rowOpen: boolean): string;
}

/** The marker of assistant text and the indent of its other rows. */
export const TEXT_MARK = "● ";
const TEXT_INDENT = "  ";

/** The layout of an assistant text block `width` columns wide; `mark` styles the marker. */
export function textLayout(width: number, mark: (text: string) => string): WrapLayout {
  return { width, first: mark(TEXT_MARK), line: TEXT_INDENT, rest: TEXT_INDENT };
}

/**
 * Creates the stream of one text block.
 * Contract: the concatenation of the outputs, for a row closed at the start and never written to
 * by anyone else meanwhile, is the block's `describeAssistant` rows each followed by `\n`: words
 * wrap at spaces to `layout.width`, outer blank lines are dropped, trailing spaces too. A word is
 * written once complete; when someone else ends the row meanwhile, the text goes on in a new one.
 */
export function createTextStream(layout: WrapLayout): TextStream {
  const sanitizer = createStreamSanitizer();
  const wrapper = createWordWrapper(layout);
  return {
    push: (delta, rowOpen) => wrapper.push(sanitizer.push(delta), rowOpen),
    end: (rowOpen) => {
      const rest = wrapper.push(sanitizer.flush(), rowOpen);
      return rest + wrapper.end(rest === "" ? rowOpen : !rest.endsWith("\n"));
    },
  };
}

/** The rows a whole text block becomes (what streaming it writes, split into rows). */
export function textRows(text: string, layout: WrapLayout): string[] {
  const stream = createTextStream(layout);
  const body = stream.push(text, false);
  const out = body + stream.end(body !== "" && !body.endsWith("\n"));
  return out === "" ? [] : out.replace(/\n$/, "").split("\n");
}
