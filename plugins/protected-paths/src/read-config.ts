import type { ExtensionAPI } from "@gatehouse/sdk";
import { z } from "zod";
import { type ProtectedPathsConfig, protectedPathsConfigSchema, protectedPathsMergeRules } from "./config.ts";

/**
 * Each settings level's `workspace` list, to be read with a `"union"` merge: every level's roots.
 * Loose: it reads one key of a section the second read validates whole (a plain `z.object` would
 * have the host report every other key as unknown).
 */
const levelRootsSchema = z.looseObject({ workspace: protectedPathsConfigSchema.shape.workspace });

/**
 * Reads the `protected-paths` section the way the extension does, through `api.config`: first
 * every settings level's `workspace` roots (a union: the roots each level's `./` rules were written
 * for), then the section itself with its merge rules (a narrower), with those roots added to
 * `ruleAnchors`. The parsed value, which the guard, `gatehouse policy check` and agent hooks all
 * compile, therefore keeps each `./` rule where a level meant it when a lower level narrows the
 * workspace (narrowing may only take permissions away).
 * Contract: the section's own errors and floor violations are reported as `api.config` reports
 * them; the explanation recorded last is the section's.
 */
export function readProtectedPathsConfig(config: ExtensionAPI["config"]): ProtectedPathsConfig {
  const levelRoots = config(levelRootsSchema, { merge: { workspace: "union" } }).workspace ?? [];
  const anchored = protectedPathsConfigSchema.transform(
    (section): ProtectedPathsConfig => ({
      ...section,
      ruleAnchors: [...new Set([...section.ruleAnchors, ...levelRoots])],
    }),
  );
  return config(anchored, { merge: protectedPathsMergeRules });
}
