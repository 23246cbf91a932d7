/**
 * The rows kept at the bottom of a terminal while something is in progress, redrawn in place:
 * the model request (with what it is writing), then one block per running call — its call line
 * with a spinner and elapsed time, and its latest progress nested under it.
 */
import { callLine } from "./call-block.ts";
import { formatDuration } from "./run-summary.ts";
import { type LineStyle, nested } from "./styled-lines.ts";
import { truncateToWidth } from "./text-width.ts";

/** A call between its start and its end. */
export interface RunningCall {
  toolName: string;
  args: unknown;
  startedAt: number;
  /** Last line of the latest progress text, sanitized and scrubbed. */
  progress?: string;
}

/** A model request in flight. */
export interface ModelActivity {
  startedAt: number;
  /** What the model is producing now, e.g. `thinking…` or the tool call it is streaming. */
  detail?: string | undefined;
}

/** Everything one frame of the region depends on. */
export interface RegionInput {
  frame: string;
  model?: ModelActivity | undefined;
  calls: readonly RunningCall[];
  now: number;
  style: LineStyle;
  /** Rows the region may take (the terminal's height matters: it cannot redraw above the top). */
  maxRows: number;
}

/**
 * One frame of the region.
 * Contract: at most `maxRows` rows (at least one when anything is running), each within
 * `style.width`; calls in start order, each with its progress row when it has one; calls that do
 * not fit are counted in a last row.
 */
export function regionRows(input: RegionInput): string[] {
  const { style, now } = input;
  const p = style.palette;
  const rows: string[] = [];
  if (input.model) {
    const elapsed = `${p.bold("model")} ${p.dim(formatDuration(now - input.model.startedAt))}`;
    const detail = input.model.detail ? ` ${p.dim("·")} ${input.model.detail}` : "";
    rows.push(truncateToWidth(`${p.cyan(input.frame)} ${elapsed}${detail}`, style.width));
  }
  const limit = Math.max(1, input.maxRows);
  for (const [index, call] of input.calls.entries()) {
    const block = [
      callLine({
        mark: input.frame,
        tone: p.cyan,
        toolName: call.toolName,
        args: call.args,
        suffix: p.dim(formatDuration(now - call.startedAt)),
        style,
      }),
      ...(call.progress ? nested([p.dim(call.progress)], style) : []),
    ];
    const left = input.calls.length - index;
    // Keep one row for "and N more" unless this is the last call.
    if (rows.length + block.length > limit - (left > 1 ? 1 : 0)) {
      rows.push(p.dim(truncateToWidth(`  … and ${left} more running`, style.width)));
      break;
    }
    rows.push(...block);
  }
  return rows.slice(0, limit);
}
