import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  checkCall,
  createPolicy,
  type ProtectedPathsConfigInput,
  readProtectedPathsConfig,
} from "@gatehouse/protected-paths";
import type { ToolEffect } from "@gatehouse/sdk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonSource } from "../../src/common/json-source.ts";
import { isWithin, resolveRoot } from "../../src/config/resolve-root.ts";
import type { LevelValue } from "../../src/config/rule-merge.ts";
import type { SettingsLevel, SettingsLevelName } from "../../src/config/settings-levels.ts";
import { readConfig } from "../../src/extensions/read-config.ts";
import { tempDir } from "../helpers/scenario.ts";

// Property: whatever a project and a project-local file say, the effective protected-paths policy
// is never looser than the managed section alone — judged by comparing keys and by evaluating real
// decisions (a call managed alone refuses is refused under the merged policy too).

const cwd = tempDir("gh-floor-");
const home = tempDir("gh-floor-home-");
for (const dir of ["src/deep", "docs", "secrets", "build"]) mkdirSync(join(cwd, dir), { recursive: true });
symlinkSync("/etc", join(cwd, "etc-link"));

const glob = fc.constantFrom(
  "secrets/**",
  "*.pem",
  "docs/**",
  ".env.local",
  "build/**",
  "src/deep/**",
  // Anchored at a root: a lower level narrowing the workspace must not move them.
  "./secrets/**",
  "./docs/**",
  "./src/deep/**",
);
const root = fc.constantFrom(".", "./src", "./docs", "./src/deep", "/", "..", "/tmp", "./etc-link", "./src/..", "~");
const sectionArb: fc.Arbitrary<ProtectedPathsConfigInput> = fc.record(
  {
    bash: fc.constantFrom("allow", "analyze", "deny"),
    undeclaredEffects: fc.constantFrom("allow", "deny"),
    allowOutsideWorkspace: fc.record({ read: fc.boolean(), write: fc.boolean() }, { requiredKeys: [] }),
    denyWrite: fc.uniqueArray(glob, { maxLength: 3 }),
    denyRead: fc.uniqueArray(glob, { maxLength: 3 }),
    workspace: fc.uniqueArray(root, { minLength: 1, maxLength: 3 }),
    caseInsensitive: fc.constantFrom("auto" as const, true, false),
  },
  { requiredKeys: [] },
);

/** Lower levels often set just one key, so many merges load and their decisions get compared. */
const lowerArb: fc.Arbitrary<ProtectedPathsConfigInput> = fc.oneof(
  { arbitrary: sectionArb, weight: 1 },
  {
    arbitrary: sectionArb.chain((section) =>
      fc
        .subarray(Object.keys(section) as (keyof ProtectedPathsConfigInput)[], { maxLength: 1 })
        .map((keys) => Object.fromEntries(keys.map((key) => [key, section[key]])) as ProtectedPathsConfigInput),
    ),
    weight: 3,
  },
);

/** A settings level held in memory, located like a real file. */
function level(name: SettingsLevelName, section: unknown): LevelValue {
  const file = join(cwd, `${name}.json`);
  const text = JSON.stringify({ config: { "protected-paths": section } }, null, 2);
  const source = parseJsonSource(text, file);
  const settings = source.value as SettingsLevel["settings"];
  return { level: { level: name, file, dir: cwd, settings, source }, value: section };
}

/** The effective section, read exactly as the extension reads it (`api.config`, possibly more than once). */
function effective(levels: LevelValue[]) {
  return readProtectedPathsConfig(
    (schema, options) =>
      readConfig({
        name: "protected-paths",
        schema,
        input: { kind: "settings", levels, floor: true, cwd },
        merge: options?.merge,
      }).value,
  );
}

const PATHS = [".env", "secrets/a.txt", "key.pem", "docs/readme.md", "src/a.ts", "src/deep/b.ts", "build/out.js"];
const OUTSIDE = [
  "/etc/passwd",
  "../outside.txt",
  "/tmp/x",
  "~/.ssh/id_rsa",
  "etc-link/hosts",
  ".git/config",
  // Where a `./` rule of a managed root above the project (`..`, `/tmp`) points.
  "../secrets/a.txt",
  "/tmp/docs/readme.md",
];
const PROBES: (ToolEffect[] | undefined)[] = [
  ...[...PATHS, ...OUTSIDE].flatMap((path): ToolEffect[][] => [[{ kind: "write", path }], [{ kind: "read", path }]]),
  [{ kind: "exec", command: "ls" }],
  [{ kind: "exec", command: "echo hi > docs/out.txt" }],
  [{ kind: "exec", command: "cat secrets/a.txt" }],
  undefined,
];

const RANK = {
  bash: ["allow", "analyze", "sandbox", "deny"],
  undeclaredEffects: ["allow", "deny"],
} as const;
const rank = (key: keyof typeof RANK, value: unknown) => (RANK[key] as readonly unknown[]).indexOf(value);

describe("the managed floor, over random (managed, project, local) triples", () => {
  it("the effective policy is never looser than managed alone, by key and by decision", () => {
    let loaded = 0;
    fc.assert(
      fc.property(
        fc.option(sectionArb, { nil: undefined }),
        fc.option(lowerArb, { nil: undefined }),
        fc.option(lowerArb, { nil: undefined }),
        (managed, project, local) => {
          const floor = effective(managed === undefined ? [] : [level("managed", managed)]);
          const levels = [
            ...(managed === undefined ? [] : [level("managed", managed)]),
            ...(local === undefined ? [] : [level("projectLocal", local)]),
            ...(project === undefined ? [] : [level("project", project)]),
          ];
          let merged: typeof floor;
          try {
            merged = effective(levels);
          } catch (error) {
            // The guard refuses to load and the run stops: nothing was loosened. The refusal never
            // blames managed settings, which are valid on their own.
            expect((error as Error).message).not.toContain("(managed settings)");
            return;
          }
          loaded++;
          expect(rank("bash", merged.bash)).toBeGreaterThanOrEqual(rank("bash", floor.bash));
          expect(rank("undeclaredEffects", merged.undeclaredEffects)).toBeGreaterThanOrEqual(
            rank("undeclaredEffects", floor.undeclaredEffects),
          );
          for (const side of ["read", "write"] as const) {
            if (!floor.allowOutsideWorkspace[side]) expect(merged.allowOutsideWorkspace[side]).toBe(false);
          }
          expect(merged.denyWrite).toEqual(expect.arrayContaining(floor.denyWrite));
          expect(merged.denyRead).toEqual(expect.arrayContaining(floor.denyRead));
          expect(merged.caseInsensitive).toBe(floor.caseInsensitive);
          const outer = (floor.workspace ?? ["."]).map((r) => resolveRoot(r, { cwd, home: process.env.HOME ?? home }));
          for (const r of merged.workspace ?? ["."]) {
            const inner = resolveRoot(r, { cwd, home: process.env.HOME ?? home }) as string;
            expect(outer.some((o) => o !== undefined && isWithin(o, inner))).toBe(true);
          }
          const floorPolicy = createPolicy(floor, { cwd, home });
          const mergedPolicy = createPolicy(merged, { cwd, home });
          for (const effects of PROBES) {
            if (checkCall(effects, floorPolicy).allow) continue;
            expect({ effects, allow: checkCall(effects, mergedPolicy).allow }).toEqual({ effects, allow: false });
          }
        },
      ),
      { numRuns: 300 },
    );
    // The property must also have been checked on merges that loaded, not only on refusals.
    expect(loaded).toBeGreaterThan(50);
  });
});
