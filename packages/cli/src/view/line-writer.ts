/**
 * Writes the view's output: streamed text, permanent lines, and in TTY mode one status line kept
 * at the bottom and redrawn in place with carriage return and erase-line.
 */
import { ERASE_LINE } from "./ansi.ts";

/** One render step: streamed text, then lines to print for good, then the status line wanted. */
export interface RenderStep {
  /**
   * Text written as is, before the lines; it may end mid-row (the row stays open for the next
   * step's text) and may be longer than a row (the terminal wraps it). TTY mode only.
   */
  inline?: string;
  lines: readonly string[];
  /** The status line to show below the lines; undefined for none. Ignored in plain mode. */
  status: string | undefined;
}

/** Renders steps to a stream. */
export interface LineWriter {
  render(step: RenderStep): void;
  /** True while streamed text has left the cursor after text on its row. */
  rowOpen(): boolean;
}

/**
 * Creates a writer for `out`.
 * Contract: each step is at most one `write`; in TTY mode the status line is erased before
 * printing above it and redrawn after, a step that changes nothing writes nothing, and a status
 * line is never followed by a newline. While streamed text leaves a row open the status line is
 * not shown (it would have to share the row); the first line printed ends the open row first.
 * In plain mode only the lines are written.
 */
export function createLineWriter(options: { out: NodeJS.WritableStream; tty: boolean }): LineWriter {
  let shown: string | undefined;
  let open = false;
  return {
    render(step) {
      const body = step.lines.map((line) => `${line}\n`).join("");
      if (!options.tty) {
        if (body !== "") options.out.write(body);
        return;
      }
      const inline = step.inline ?? "";
      if (body === "" && inline === "" && (open || step.status === shown)) return;
      let out = shown === undefined ? "" : ERASE_LINE;
      shown = undefined;
      if (inline !== "") {
        out += inline;
        open = !inline.endsWith("\n");
      }
      if (body !== "") {
        out += `${open ? "\n" : ""}${body}`;
        open = false;
      }
      if (!open && step.status !== undefined) {
        out += step.status;
        shown = step.status;
      }
      options.out.write(out);
    },
    rowOpen: () => open,
  };
}
