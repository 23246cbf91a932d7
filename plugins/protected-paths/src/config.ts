import type { ConfigMergeRule } from "@gatehouse/sdk";
import { z } from "zod";
import { checkPathText } from "./paths/path-text.ts";
import { reversedGlobRange } from "./rules/reversed-glob-range.ts";

const pathText = z
  .string()
  .refine((s) => checkPathText(s) === undefined, "must be a non-empty path or glob without control characters");

/** A deny glob: a path text whose bracket classes hold no reversed range (minimatch drops one silently). */
const denyGlob = pathText.superRefine((pattern, ctx) => {
  const range = reversedGlobRange(pattern);
  if (range !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `is not a valid glob: the range ${range} is reversed and would match nothing (write it low-high)`,
    });
  }
});

const outside = z.strictObject({
  /** Reads outside every workspace root (default allowed: reading a library's source is normal). */
  read: z.boolean().default(true),
  /** Writes outside every workspace root (default denied). */
  write: z.boolean().default(false),
});

/**
 * The `config["protected-paths"]` section. Every field is optional; unknown fields are errors so a
 * typo (`denyWrites`) is reported instead of silently protecting nothing.
 */
export const protectedPathsConfigSchema = z.strictObject({
  /** Workspace roots; relative ones resolve against the project directory. Default: the project directory. */
  workspace: z.array(pathText).min(1).optional(),
  /** Extra write denies (minimatch globs, `dot: true`), added to the defaults. */
  denyWrite: z.array(denyGlob).default([]),
  /** Read denies (minimatch globs, `dot: true`). */
  denyRead: z.array(denyGlob).default([]),
  /**
   * More directories `./` patterns are anchored at, besides the project directory and the
   * workspace roots. The extension adds every settings level's `workspace` roots itself, so a
   * lower level that narrows the workspace never moves a rule a higher level wrote for its roots.
   */
  ruleAnchors: z.array(pathText).default([]),
  allowOutsideWorkspace: outside.prefault({}),
  /** "auto" folds when the filesystem of a workspace root or rule anchor (the project directory) folds. */
  caseInsensitive: z.union([z.literal("auto"), z.boolean()]).default("auto"),
  /**
   * "sandbox" (default): every command runs in an OS sandbox built from this policy, after a quick
   * analysis that refuses what it can prove denied; "analyze": the best-effort analysis alone;
   * "deny": no shell at all; "allow": unchecked.
   */
  bash: z.enum(["sandbox", "analyze", "deny", "allow"]).default("sandbox"),
  /** Network access for sandboxed commands (default "deny": a network namespace of their own). */
  network: z.enum(["deny", "allow"]).default("deny"),
  /**
   * Tools that declare no effects cannot be checked. "deny" (default) refuses them; "allow" lets
   * them run unchecked, for projects whose custom tools do not declare effects yet.
   */
  undeclaredEffects: z.enum(["allow", "deny"]).default("deny"),
});

/** The configuration as written in settings. */
export type ProtectedPathsConfigInput = z.input<typeof protectedPathsConfigSchema>;

/** The configuration after defaults. */
export type ProtectedPathsConfig = z.output<typeof protectedPathsConfigSchema>;

/**
 * How each key merges across settings levels (see `ConfigMergeRule`): under managed settings, a
 * lower level can only add denies (and rule anchors), narrow the workspace and move a mode towards
 * its strict end.
 * `caseInsensitive` is pinned: folding case where the filesystem does not ("true" on a case-sensitive
 * disk) would let `/Proj` pass as inside `/proj`, and not folding where it does lets `.ENV` past a
 * `.env` deny, so either override can loosen something; "auto" (probing) is right by construction.
 * `bash` lists "sandbox" for the OS-sandbox mode, between analysis and no shell at all.
 */
export const protectedPathsMergeRules = {
  workspace: "narrower",
  denyWrite: "union",
  denyRead: "union",
  ruleAnchors: "union",
  allowOutsideWorkspace: { fields: { read: { stricter: [true, false] }, write: { stricter: [true, false] } } },
  caseInsensitive: "pinned",
  bash: { stricter: ["allow", "analyze", "sandbox", "deny"] },
  network: { stricter: ["allow", "deny"] },
  undeclaredEffects: { stricter: ["allow", "deny"] },
} as const satisfies { readonly [Key in keyof ProtectedPathsConfigInput]-?: ConfigMergeRule };
