/**
 * Shared styling of the view's rows: the width a row may take, tool names, the nesting marks
 * under a call, warnings, notes and the summary.
 */
import type { Palette } from "./ansi.ts";
import { firstLine } from "./result-text.ts";
import { truncateToWidth } from "./text-width.ts";
import { wrapWords } from "./word-wrap.ts";

/** How rows are styled and how wide a row may be. */
export interface LineStyle {
  palette: Palette;
  /** Columns a row may take. */
  width: number;
}

/** Tool names are cut to this many columns so a silly name cannot push the rest off the row. */
const NAME_WIDTH = 32;

/** Prefix of the first row nested under a call. */
export const NEST_FIRST = "  └ ";
/** Prefix of the other rows nested under a call. */
export const NEST_REST = "    ";

/** A tool name as the view shows it: one line, at most 32 columns, `(unnamed)` when blank. */
export function toolLabel(toolName: string): string {
  return truncateToWidth(firstLine(toolName) || "(unnamed)", NAME_WIDTH);
}

/** Rows nested under a call: `  └ first`, `    next`, each cut to the row (already styled text). */
export function nested(rows: readonly string[], style: LineStyle): string[] {
  return rows.map((row, i) =>
    truncateToWidth(`${i === 0 ? style.palette.dim(NEST_FIRST) : NEST_REST}${row}`, style.width),
  );
}

/** A message nested under a call, wrapped at word boundaries, at most `max` rows (the last ends with …). */
export function nestedText(
  text: string,
  style: LineStyle,
  options: { max: number; tone: (s: string) => string },
): string[] {
  const rows = wrapWords(text, { width: Math.max(10, style.width - NEST_REST.length) });
  const kept = rows.length > options.max ? [...rows.slice(0, options.max - 1), `${rows[options.max - 1]} …`] : rows;
  return kept.map((row, i) => `${i === 0 ? style.palette.dim(NEST_FIRST) : NEST_REST}${options.tone(row)}`);
}

/** A warning row about the host or an extension: `⚠ extension x failed in tool_call: …`, wrapped. */
export function warningLines(text: string, style: LineStyle): string[] {
  return wrapWords(text, { width: style.width, first: "⚠ ", rest: "  " }).map((row) => style.palette.yellow(row));
}

/** An informational row: `↻ extensions reloaded: …`. */
export function noteLine(text: string, style: LineStyle): string {
  return style.palette.dim(truncateToWidth(`↻ ${text}`, style.width));
}
