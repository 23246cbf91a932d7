/**
 * Writes the view's output: permanent lines, and in TTY mode one status line kept at the
 * bottom and redrawn in place with carriage return and erase-line.
 */
import { ERASE_LINE } from "./ansi.ts";

/** One render step: lines to print for good, and the status line wanted after them. */
export interface RenderStep {
  lines: readonly string[];
  /** The status line to show below the lines; undefined for none. Ignored in plain mode. */
  status: string | undefined;
}

/** Renders steps to a stream. */
export interface LineWriter {
  render(step: RenderStep): void;
}

/**
 * Creates a writer for `out`.
 * Contract: each step is at most one `write`; in TTY mode the status line is erased before
 * printing above it and redrawn after, a step that changes nothing writes nothing, and a status
 * line is never followed by a newline; in plain mode only the lines are written.
 */
export function createLineWriter(options: { out: NodeJS.WritableStream; tty: boolean }): LineWriter {
  let shown: string | undefined;
  return {
    render(step) {
      const body = step.lines.map((line) => `${line}\n`).join("");
      if (!options.tty) {
        if (body !== "") options.out.write(body);
        return;
      }
      if (body === "" && step.status === shown) return;
      const erase = shown === undefined ? "" : ERASE_LINE;
      options.out.write(`${erase}${body}${step.status ?? ""}`);
      shown = step.status;
    },
  };
}
