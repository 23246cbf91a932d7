/**
 * The one-line summary printed at the end of a run:
 * `done · 2 turns · 6 tool calls: 4 ok, 1 failed, 1 blocked · 12.4k in / 1.2k out tokens · 0.8s`.
 */
import type { StopReason, ToolOutcome } from "@gatehouse/sdk";
import { plural } from "../plural.ts";
import { formatUsage, type TokenTotals } from "./token-usage.ts";

/** What the view has counted so far in one run. */
export interface RunCounts {
  turns: number;
  /** Finished calls per outcome. */
  outcomes: Map<ToolOutcome, number>;
  /** Calls started but not finished when the summary is printed. */
  unfinished: number;
  /** The stopReason of the last finalized assistant message, if any. */
  lastStopReason?: StopReason | undefined;
  /** Tokens summed over the assistant messages that reported usage; undefined when none did. */
  usage?: TokenTotals | undefined;
  /** The user pressed Ctrl-C: the run was interrupted, whatever the model's last word. */
  interrupted?: boolean;
  /** Calls not started because of an abort (they have an error result, and no start or end event). */
  skipped?: number;
}

/** The order and the words outcomes are listed with. */
const OUTCOME_LABELS: readonly (readonly [ToolOutcome, string])[] = [
  ["executed", "ok"],
  ["failed", "failed"],
  ["blocked", "blocked"],
  ["invalid", "invalid"],
  ["unknown", "unknown"],
  ["aborted", "stopped"],
];

/** Formats a duration: `0.8s`, `12.0s`, `2m05s`. */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 60_000) return `${(safe / 1000).toFixed(1)}s`;
  const seconds = Math.floor(safe / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

function toolCalls(counts: RunCounts): string {
  const parts = OUTCOME_LABELS.filter(([outcome]) => (counts.outcomes.get(outcome) ?? 0) > 0).map(
    ([outcome, label]) => `${counts.outcomes.get(outcome)} ${label}`,
  );
  for (const [outcome, n] of counts.outcomes) {
    if (!OUTCOME_LABELS.some(([known]) => known === outcome) && n > 0) parts.push(`${n} ${outcome}`);
  }
  if ((counts.skipped ?? 0) > 0) parts.push(`${counts.skipped} never started`);
  if (counts.unfinished > 0) parts.push(`${counts.unfinished} unfinished`);
  let total = counts.unfinished + (counts.skipped ?? 0);
  for (const n of counts.outcomes.values()) total += n;
  return total === 0 ? "no tool calls" : `${plural(total, "tool call")}: ${parts.join(", ")}`;
}

/** The word that opens the summary, from how the run ended. */
export function summaryLabel(options: { counts: RunCounts; finished: boolean; exitCode?: number | undefined }): string {
  if (options.counts.interrupted) return "interrupted";
  if (!options.finished) {
    return options.exitCode === undefined ? "stopped" : `stopped (exit ${options.exitCode})`;
  }
  if (options.counts.lastStopReason === "error") return "failed";
  if (options.counts.lastStopReason === "aborted") return "aborted";
  return "done";
}

/**
 * Formats the summary line.
 * Contract: lists only outcomes that occurred, in a fixed order (ok, failed, blocked, invalid,
 * unknown, stopped (aborted), never started, then unfinished); the tool-call total is the sum of
 * those counts; token usage comes before the duration, only when some message reported it.
 */
export function formatSummary(options: { label: string; counts: RunCounts; elapsedMs: number }): string {
  const { counts } = options;
  const usage = counts.usage === undefined ? [] : [formatUsage(counts.usage)];
  return [
    options.label,
    plural(counts.turns, "turn"),
    toolCalls(counts),
    ...usage,
    formatDuration(options.elapsedMs),
  ].join(" · ");
}
