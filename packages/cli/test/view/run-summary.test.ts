import type { ToolOutcome } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { formatDuration, formatSummary, type RunCounts, summaryLabel } from "../../src/view/run-summary.ts";
import { addUsage, formatTokenCount } from "../../src/view/token-usage.ts";

const counts = (turns: number, outcomes: [ToolOutcome, number][], unfinished = 0): RunCounts => ({
  turns,
  outcomes: new Map(outcomes),
  unfinished,
});

describe("run summary", () => {
  it("lists outcome counts in a fixed order whatever order they happened in", () => {
    const c = counts(2, [
      ["blocked", 1],
      ["aborted", 2],
      ["executed", 4],
      ["unknown", 1],
      ["invalid", 3],
      ["failed", 1],
    ]);
    expect(formatSummary({ label: "done", counts: c, elapsedMs: 812 })).toBe(
      "done · 2 turns · 12 tool calls: 4 ok, 1 failed, 1 blocked, 3 invalid, 1 unknown, 2 stopped · 0.8s",
    );
  });

  it("uses singulars and says when there were no tool calls", () => {
    expect(formatSummary({ label: "done", counts: counts(1, [["executed", 1]]), elapsedMs: 0 })).toBe(
      "done · 1 turn · 1 tool call: 1 ok · 0.0s",
    );
    expect(formatSummary({ label: "done", counts: counts(1, []), elapsedMs: 50 })).toBe(
      "done · 1 turn · no tool calls · 0.1s",
    );
  });

  it("counts unfinished calls in the total", () => {
    expect(formatSummary({ label: "stopped", counts: counts(1, [["executed", 1]], 2), elapsedMs: 0 })).toBe(
      "stopped · 1 turn · 3 tool calls: 1 ok, 2 unfinished · 0.0s",
    );
  });

  it("labels the run by its last stop reason, or as stopped with the exit code", () => {
    const withStop = (lastStopReason: RunCounts["lastStopReason"]) => ({ ...counts(1, []), lastStopReason });
    expect(summaryLabel({ counts: withStop("stop"), finished: true })).toBe("done");
    expect(summaryLabel({ counts: withStop("error"), finished: true })).toBe("failed");
    expect(summaryLabel({ counts: withStop("aborted"), finished: true })).toBe("aborted");
    expect(summaryLabel({ counts: withStop("stop"), finished: false, exitCode: 2 })).toBe("stopped (exit 2)");
    expect(summaryLabel({ counts: withStop(undefined), finished: false })).toBe("stopped");
  });

  it("formats long durations in minutes", () => {
    expect(formatDuration(125_400)).toBe("2m05s");
    expect(formatDuration(-5)).toBe("0.0s");
  });

  it("adds token usage before the duration when some message reported it", () => {
    const c: RunCounts = { ...counts(3, [["executed", 4]]), usage: { input: 12_400, output: 1_234 } };
    expect(formatSummary({ label: "done", counts: c, elapsedMs: 8_100 })).toBe(
      "done · 3 turns · 4 tool calls: 4 ok · 12.4k in / 1.2k out tokens · 8.1s",
    );
  });
});

describe("token usage", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1_000, "1.0k"],
    [1_234, "1.2k"],
    [12_449, "12.4k"],
    [99_949, "99.9k"],
    [99_950, "100k"],
    [312_400, "312k"],
    [999_499, "999k"],
    [999_500, "1.0M"],
    [1_550_000, "1.6M"],
    [250_000_000, "250M"],
    [-3, "0"],
    [Number.NaN, "0"],
  ])("formats %d tokens as %s", (n, expected) => {
    expect(formatTokenCount(n)).toBe(expected);
  });

  it("sums input and output, and stays undefined while no message reports usage", () => {
    expect(addUsage(undefined, undefined)).toBeUndefined();
    const one = addUsage(undefined, { input: 100, output: 7, cacheRead: 50 });
    expect(one).toEqual({ input: 100, output: 7 });
    expect(addUsage(one, undefined)).toBe(one);
    expect(addUsage(one, { input: 1, output: Number.POSITIVE_INFINITY })).toEqual({ input: 101, output: 7 });
  });
});
