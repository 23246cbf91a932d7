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
});
