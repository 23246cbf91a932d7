import type { ToolOutcome } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { formatDuration, formatSummary, type RunCounts, summaryLabel } from "../../src/cli/view/run-summary.ts";

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
      "done · 2 turns · 12 tool calls: 4 ok, 1 failed, 1 blocked, 3 invalid, 1 unknown, 2 aborted · 0.8s",
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
});
