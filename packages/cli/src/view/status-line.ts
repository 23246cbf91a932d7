/**
 * The status line shown at the bottom of a terminal while the model answers or tools run:
 * `⠹ model 2.1s · write a.txt (120 chars)…`, `⠹ bash 1.2s, grep 0.3s · bash: compiling 3/7`.
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

/** A model request in flight. */
export interface ModelActivity {
  startedAt: number;
  /** What the model is producing now, e.g. `thinking…` or the tool call it is streaming. */
  detail?: string | undefined;
}

/** Everything one frame of the status line depends on. */
export interface StatusLineInput {
  frame: string;
  /** The model request in flight, if any; shown before the calls. */
  model?: ModelActivity | undefined;
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

function modelPart(model: ModelActivity, input: StatusLineInput): string {
  const p = input.palette;
  const elapsed = `${p.bold("model")} ${p.dim(formatDuration(input.now - model.startedAt))}`;
  return model.detail === undefined || model.detail === "" ? elapsed : `${elapsed} ${p.dim("·")} ${model.detail}`;
}

/**
 * Formats one frame of the status line.
 * Contract: one line of at most `width` columns; names the model request with its elapsed time
 * and detail, then every running call with its elapsed time in start order, then the last
 * progress line of the most recently updated call.
 */
export function formatStatusLine(input: StatusLineInput): string {
  const { palette: p } = input;
  const calls = [...input.calls];
  const names = [
    ...(input.model === undefined ? [] : [modelPart(input.model, input)]),
    ...calls.map((call) => `${p.bold(call.toolName)} ${p.dim(formatDuration(input.now - call.startedAt))}`),
  ].join(", ");
  const latest = latestProgress(calls);
  const owner = latest !== undefined && calls.length > 1 ? `${latest.toolName}: ` : "";
  const progress = latest === undefined ? "" : p.dim(` · ${owner}${latest.progress}`);
  return truncateToWidth(`${p.cyan(input.frame)} ${names}${progress}`, input.width);
}
