import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { BoundedMatcher } from "../../src/tools/bounded-match.ts";

describe("BoundedMatcher", () => {
  it("returns the indices of matching lines, in order", () => {
    expect(new BoundedMatcher(/^im/).match(["import a", "x", "impl", ""])).toEqual([0, 2]);
    expect(new BoundedMatcher(/x/).match([])).toEqual([]);
  });

  it("stops a catastrophic pattern once the runs together used the budget, naming the pattern", () => {
    const matcher = new BoundedMatcher(/^(a+)+$/, { budgetMs: 150 });
    const line = `${"a".repeat(40)}b`;
    const started = performance.now();
    expect(() => matcher.match([line])).toThrow(/^The pattern \/\^\(a\+\)\+\$\/ took more than 0\.15 s to match/);
    expect(performance.now() - started).toBeLessThan(5_000);
    // The budget is spent: the next run has 1 ms left and stops as well.
    expect(() => matcher.match([line])).toThrow(/took more than/);
  });

  it("matchers running together share one budget until the event loop turns, so a batch cannot hold the thread N times as long", async () => {
    await nextTurn();
    const line = `${"a".repeat(40)}b`;
    // Three parallel greps whose files were read together: their runs follow each other in one turn.
    const matchers = [1, 2, 3].map(() => new BoundedMatcher(/^(a+)+$/, { budgetMs: 150 }));
    const started = performance.now();
    expect(() => matchers[0]?.match([line])).toThrow(/took more than 0\.15 s to match/);
    expect(() => matchers[1]?.match(["a"])).toThrow(
      /^The pattern \/\^\(a\+\)\+\$\/ was not matched: the searches running together with this one already took 0\.15 s/,
    );
    expect(() => matchers[2]?.match([line])).toThrow(/was not matched/);
    // Without the shared budget this took three budgets (and N budgets for N calls).
    expect(performance.now() - started).toBeLessThan(150 * 2);
    // Once the loop has turned (Ctrl-C, timers and I/O were handled), a matcher may run again.
    await nextTurn();
    expect(matchers[1]?.match(["a", "b"])).toEqual([0]);
  });

  it("runs nothing once the call's signal is aborted", () => {
    const controller = new AbortController();
    const matcher = new BoundedMatcher(/a/, { signal: controller.signal });
    expect(matcher.match(["a"])).toEqual([0]);
    controller.abort(new Error("stop"));
    expect(() => matcher.match(["a"])).toThrow("stop");
  });
});
