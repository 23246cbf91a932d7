/**
 * Writes the view's output: streamed text, rows printed for good, and in a terminal the live
 * region — a few rows kept at the bottom and redrawn in place (cursor up, erase to the end of the
 * screen). Every region row is narrower than the terminal, so no row ever wraps and the cursor
 * arithmetic stays exact.
 */
import { cursorUp, ERASE_DOWN } from "./ansi.ts";

/** One render step: streamed text, then rows to print for good, then the region wanted below them. */
export interface RenderStep {
  /**
   * Text written as is, before the rows; it may end mid-row (the row stays open for the next
   * step's text). Terminal mode only.
   */
  inline?: string;
  lines: readonly string[];
  /** The live region below the rows; empty for none. Ignored outside a terminal. */
  region: readonly string[];
}

/** Renders steps to a stream. */
export interface RegionWriter {
  render(step: RenderStep): void;
  /** True while streamed text has left the cursor after text on its row. */
  rowOpen(): boolean;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((row, i) => row === b[i]);

/**
 * Creates a writer for `out`.
 * Contract: each step is at most one `write`; in a terminal the region is erased before anything
 * is printed above it and drawn again after, a step that changes nothing writes nothing, and the
 * region is never followed by a newline (the cursor stays at its end). While streamed text leaves
 * a row open the region is not shown (it would have to share the row); the first row printed ends
 * the open row first. Outside a terminal only the rows are written.
 */
export function createRegionWriter(options: { out: NodeJS.WritableStream; tty: boolean }): RegionWriter {
  let shown: readonly string[] = [];
  let open = false;
  return {
    render(step) {
      const body = step.lines.map((line) => `${line}\n`).join("");
      if (!options.tty) {
        if (body !== "") options.out.write(body);
        return;
      }
      const inline = step.inline ?? "";
      if (body === "" && inline === "" && (open || same(step.region, shown))) return;
      let out = "";
      if (shown.length > 0) out = `\r${shown.length > 1 ? cursorUp(shown.length - 1) : ""}${ERASE_DOWN}`;
      shown = [];
      if (inline !== "") {
        out += inline;
        open = !inline.endsWith("\n");
      }
      if (body !== "") {
        out += `${open ? "\n" : ""}${body}`;
        open = false;
      }
      if (!open && step.region.length > 0) {
        out += step.region.join("\n");
        shown = [...step.region];
      }
      if (out !== "") options.out.write(out);
    },
    rowOpen: () => open,
  };
}
