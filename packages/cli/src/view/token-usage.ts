/**
 * Token usage over a run, summed from the assistant messages that report it, and its compact
 * form for the summary line: `12.4k in / 1.2k out tokens`.
 */
import type { Usage } from "@gatehouse/sdk";

/** Tokens counted so far in one run. */
export interface TokenTotals {
  input: number;
  output: number;
}

const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);

/**
 * Adds one message's usage to `totals`.
 * Contract: returns `totals` unchanged when `usage` is missing (so a run where no message reports
 * usage stays `undefined`); negative or non-finite counts add nothing.
 */
export function addUsage(totals: TokenTotals | undefined, usage: Usage | undefined): TokenTotals | undefined {
  if (typeof usage !== "object" || usage === null) return totals;
  return {
    input: (totals?.input ?? 0) + count(usage.input),
    output: (totals?.output ?? 0) + count(usage.output),
  };
}

function scaled(value: number, unit: string): string {
  return value < 99.95 ? `${value.toFixed(1)}${unit}` : `${Math.round(value)}${unit}`;
}

/** A token count in at most four digits: `950`, `1.2k`, `12.4k`, `312k`, `1.5M`. */
export function formatTokenCount(n: number): string {
  const safe = Math.round(count(n));
  if (safe < 1000) return String(safe);
  if (safe < 999_500) return scaled(safe / 1000, "k");
  return scaled(safe / 1_000_000, "M");
}

/** The usage part of the summary: `12.4k in / 1.2k out tokens`. */
export function formatUsage(totals: TokenTotals): string {
  return `${formatTokenCount(totals.input)} in / ${formatTokenCount(totals.output)} out tokens`;
}
