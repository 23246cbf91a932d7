import { describe, expect, it } from "vitest";
import { satisfiesRange } from "../../src/extensions/version-range.ts";

describe("satisfiesRange (npm's meaning)", () => {
  it.each([
    ["^1", "1.0.0", true],
    ["^1", "1.9.3", true],
    ["^1", "2.0.0", false],
    ["^1", "0.9.9", false],
    ["^1.2", "1.1.9", false],
    ["^1.2.3", "1.2.3", true],
    ["^0.2.3", "0.2.9", true],
    ["^0.2.3", "0.3.0", false],
    ["^0.0.3", "0.0.4", false],
    ["^0", "0.9.0", true],
    ["~1.2", "1.2.9", true],
    ["~1.2", "1.3.0", false],
    ["~1", "1.9.0", true],
    ["1", "1.4.0", true],
    ["1.x", "2.0.0", false],
    ["1.2.x", "1.2.7", true],
    ["1.2.3", "1.2.4", false],
    ["=1.2.3", "1.2.3", true],
    [">=1.2", "1.2.0", true],
    [">=1.2", "1.1.9", false],
    [">1", "1.9.9", false],
    [">1", "2.0.0", true],
    ["<2", "1.99.0", true],
    ["<2", "2.0.0", false],
    ["<=1.2", "1.2.9", true],
    ["<=1.2", "1.3.0", false],
    [">= 1.0.0 < 2", "1.5.0", true],
    ["^2 || ^1.1", "1.1.0", true],
    ["^2 || ^1.1", "1.0.0", false],
    ["*", "7.1.0", true],
    ["", "7.1.0", true],
    ["<*", "1.0.0", false],
  ])("%j on %s → %s", (range, version, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it.each(["one", "^1.0.0-beta", "1 - 2", "^^1", ">=", "1.2.3.4"])("%j is not a range it understands", (range) => {
    expect(satisfiesRange("1.0.0", range)).toBeUndefined();
  });
});
