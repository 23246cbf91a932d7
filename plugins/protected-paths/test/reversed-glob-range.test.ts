import { Minimatch } from "minimatch";
import { describe, expect, it } from "vitest";
import { protectedPathsConfigSchema } from "../src/index.ts";
import { reversedGlobRange } from "../src/rules/reversed-glob-range.ts";

// minimatch drops a reversed range from a bracket class without a word: `[z-a]` matches nothing,
// `[z-a0]` only "0". A deny written with one protects less than it says, so the config refuses it.

describe("reversedGlobRange", () => {
  it.each([
    ["[z-a]", "z-a"],
    ["a/[z-a]/**", "z-a"],
    ["[b-a]*", "b-a"],
    ["[!z-a]", "z-a"],
    ["[^z-a]", "z-a"],
    ["[\\z-a]", "z-a"],
    ["[z-a0]", "z-a"],
    ["[[:alpha:]z-a]", "z-a"],
    ["[.-$]", ".-$"],
    ["{x,[z-a]}", "z-a"],
    ["[a-z][9-0]", "9-0"],
    ["[é-a]", "é-a"],
  ])("finds the reversed range in %j", (pattern, range) => {
    expect(reversedGlobRange(pattern)).toBe(range);
  });

  it("guards against what minimatch does: a reversed range is dropped, so it matches none of its letters", () => {
    for (const name of ["a", "m", "z"]) expect(new Minimatch("[z-a]", { dot: true }).match(name)).toBe(false);
    expect(["z", "m", "0"].map((name) => new Minimatch("[z-a0]", { dot: true }).match(name))).toEqual([
      false,
      false,
      true,
    ]);
  });

  it.each([
    "[a-z]",
    "[a-a]",
    "[",
    "a[",
    "[b-a",
    "\\[z-a]",
    "[a-]",
    "[]-a]",
    "[\\]-a]",
    "[$.]",
    "[[:alpha:]]",
    "**/*.env",
    "secrets/**",
    "{a,b",
    "[-z]",
    "x[!-a]",
  ])("accepts %j", (pattern) => {
    expect(reversedGlobRange(pattern)).toBeUndefined();
  });
});

describe("the protected-paths config", () => {
  it("refuses a reversed range in denyWrite and denyRead, naming the entry", () => {
    const parsed = protectedPathsConfigSchema.safeParse({ denyWrite: ["ok/**", "[z-a]"], denyRead: ["x[9-0]"] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["denyWrite", 1], "is not a valid glob: the range z-a is reversed and would match nothing (write it low-high)"],
      [["denyRead", 0], "is not a valid glob: the range 9-0 is reversed and would match nothing (write it low-high)"],
    ]);
  });

  it("accepts ordinary globs", () => {
    expect(
      protectedPathsConfigSchema.safeParse({ denyWrite: ["[a-z]*.pem", "**/.env*"], denyRead: ["[$.]x"] }).success,
    ).toBe(true);
  });
});
