/**
 * The status line shown at the bottom of a terminal while tools run:
 * `⠹ bash 1.2s, grep 0.3s · bash: compiling 3/7`.
 */
import type { Palette } from "./ansi.ts";
import { formatDuration } from "./run-summary.ts";
import { truncateToWidth } from "./text-width.ts";

/** A call between its start and its end. */
export interface RunningCall {
  toolName: string;
  startedAt: number;
  /** Last line of the latest progress text, sanitized. */
  progress?: string;
  /** Orders progress across calls: the highest is the latest update. */
  progressSeq: number;
}

/** Everything one frame of the status line depends on. */
export interface StatusLineInput {
  frame: string;
  calls: Iterable<RunningCall>;
  now: number;
  palette: Palette;
  /** Columns the line may take. */
  width: number;
}

function latestProgress(calls: readonly RunningCall[]): RunningCall | undefined {
  let latest: RunningCall | undefined;
  for (const call of calls) {
    if (call.progress === undefined || call.progress === "") continue;
    if (latest === undefined || call.progressSeq > latest.progressSeq) latest = call;
  }
  return latest;
}

/**
 * Formats one frame of the status line.
 * Contract: one line of at most `width` columns; names every running call with its elapsed time
 * in start order, then the last progress line of the most recently updated call.
 */
export function formatStatusLine(input: StatusLineInput): string {
  const { palette: p } = input;
  const calls = [...input.calls];
  const names = calls
    .map((call) => `${p.bold(call.toolName)} ${p.dim(formatDuration(input.now - call.startedAt))}`)
    .join(", ");
  const latest = latestProgress(calls);
  const owner = latest !== undefined && calls.length > 1 ? `${latest.toolName}: ` : "";
  const progress = latest === undefined ? "" : p.dim(` · ${owner}${latest.progress}`);
  return truncateToWidth(`${p.cyan(input.frame)} ${names}${progress}`, input.width);
}
