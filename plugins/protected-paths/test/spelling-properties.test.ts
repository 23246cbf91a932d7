import { symlinkSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPolicy, type Policy } from "../src/index.ts";
import { createFixture, exec, type Fixture, write } from "./helpers/fixture.ts";
import { createFoldingFs } from "./helpers/folding-fs.ts";

const CAFE = "caf\u00e9";

/**
 * Locations the default policy plus `denyWrite: ["café/**"]` refuses, as workspace-relative
 * segments (bash in "analyze" mode, whose analysis also enforces the workspace boundary).
 */
const DENIED: readonly (readonly string[])[] = [
  [".env"],
  [".git", "config"],
  [".git"],
  [".git", "hooks", "new-hook"],
  ["node_modules", "pkg", ".env"],
  [".gatehouse", "settings.json"],
  ["sub", ".env.local"],
  ["sub", ".env"],
  [CAFE, "secret.txt"],
  ["..", "outside", "x.txt"],
];

/** Files that must stay writable whatever the spelling. */
const ALLOWED: readonly (readonly string[])[] = [
  [".envrc.md"],
  [".git", "objects", "ab", "cdef"],
  ["node_modules", "pkg", "index.js"],
  ["docs", "env.md"],
  ["playground", "x.txt"],
  ["playground", "deep", "new.txt"],
  ["env"],
  [".environment"],
  ["src", "new.ts"],
  ["sub", "notes.txt"],
];

/** Builds the tree: protected files plus symlinked aliases of the root, `.git` and `sub`. */
function setup(): Fixture {
  const f = createFixture();
  f.file("sub/.env.local");
  f.file(`${CAFE}/secret.txt`);
  f.dir("links");
  symlinkSync(path.join(f.ws, ".git"), path.join(f.ws, "links/git"));
  symlinkSync(f.ws, path.join(f.ws, "links/root"));
  symlinkSync(path.join(f.ws, "sub"), path.join(f.ws, "links/sub"));
  symlinkSync(f.ws, path.join(f.base, "alias"));
  return f;
}

interface Shape {
  prefix: "relative" | "dot" | "absolute" | "outside-alias" | "tilde";
  rootAlias: string[];
  aliasDirs: boolean;
  noise: ("none" | "dot" | "slash" | "updown")[];
  trailingSlash: boolean;
  nfd: boolean;
  upper: boolean[];
}

const shapeArb: fc.Arbitrary<Shape> = fc.record({
  prefix: fc.constantFrom("relative", "dot", "absolute", "outside-alias", "tilde"),
  rootAlias: fc.constantFrom([], ["links", "root"], ["src", ".."], ["docs", "..", "src", ".."], ["ghost", ".."]),
  aliasDirs: fc.boolean(),
  noise: fc.array(fc.constantFrom("none", "dot", "slash", "updown"), { minLength: 8, maxLength: 8 }),
  trailingSlash: fc.boolean(),
  nfd: fc.boolean(),
  upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
});

/** Spells `segments` in one of many equivalent ways; `fold` flips the case of relative segments. */
function spell(f: Fixture, segments: readonly string[], shape: Shape, fold: boolean): string {
  let parts = [...segments];
  if (shape.aliasDirs && parts[0] === ".git" && parts.length > 1) parts = ["links", "git", ...parts.slice(1)];
  if (shape.aliasDirs && parts[0] === "sub") parts = ["links", "sub", ...parts.slice(1)];
  parts = [...shape.rootAlias, ...parts];
  if (fold) parts = parts.map((p, i) => (shape.upper[i % 8] && p !== ".." ? p.toUpperCase() : p));
  const noisy = parts.flatMap((p, i) => {
    const noise = shape.noise[i % 8];
    if (noise === "dot") return [".", p];
    if (noise === "slash") return i < parts.length - 1 ? [p, ""] : [p];
    if (noise === "updown") return ["ghost", "..", p];
    return [p];
  });
  let rel = noisy.join("/");
  if (shape.trailingSlash && segments.length === 1 && segments[0] === ".git") rel += "/";
  if (shape.nfd) rel = rel.normalize("NFD");
  switch (shape.prefix) {
    case "dot":
      return `./${rel}`;
    case "absolute":
      return `${f.ws}/${rel}`;
    case "outside-alias":
      return `${f.base}/alias/${rel}`;
    case "tilde":
      return `~/${rel}`;
    default:
      return rel;
  }
}

/** The same path as a bash redirection target, quoted so the shell takes it literally. */
function redirect(spelling: string): string {
  return spelling.startsWith("~/") ? `echo x > ~/'${spelling.slice(2)}'` : `echo x > '${spelling}'`;
}

function assertAll(policy: Policy, f: Fixture, options: { cases: typeof DENIED; allow: boolean; fold: boolean }): void {
  fc.assert(
    fc.property(fc.constantFrom(...options.cases), shapeArb, (segments, shape) => {
      const spelling = spell(f, segments, shape, options.fold);
      expect(policy.check(write(spelling)).allow, spelling).toBe(options.allow);
      expect(policy.check(exec(redirect(spelling))).allow, redirect(spelling)).toBe(options.allow);
    }),
    { numRuns: 400 },
  );
}

describe("spelling properties", () => {
  it("every spelling that resolves into a denied location is refused", () => {
    const f = setup();
    const policy = f.policy({ denyWrite: [`${CAFE}/**`], bash: "analyze" }, { home: f.ws });
    assertAll(policy, f, { cases: DENIED, allow: false, fold: false });
  });

  it("no spelling of an allowed file is refused", () => {
    const f = setup();
    const policy = f.policy({ denyWrite: [`${CAFE}/**`], bash: "analyze" }, { home: f.ws });
    assertAll(policy, f, { cases: ALLOWED, allow: true, fold: false });
  });

  it("on a case-folding filesystem, case variants of denied locations are refused and of allowed files are not", () => {
    const f = setup();
    const config = { denyWrite: [`${CAFE}/**`], bash: "analyze" as const };
    const policy = createPolicy(config, { cwd: f.ws, home: f.ws, fs: createFoldingFs() });
    expect(policy.settings.caseInsensitive).toBe(true);
    assertAll(policy, f, { cases: DENIED, allow: false, fold: true });
    assertAll(policy, f, { cases: ALLOWED, allow: true, fold: true });
  });
});
