import path from "node:path";
import type { ConfigMergeRule } from "@gatehouse/sdk";
import { z } from "zod";
import { NEVER_VERBATIM } from "./redact.ts";

/** The audit file used when `file` is not configured, relative to the project directory. */
export const DEFAULT_AUDIT_FILE = path.join(".gatehouse", "audit", "audit.jsonl");

const verbatimSchema = z.record(z.string(), z.array(z.string())).superRefine((lists, ctx) => {
  for (const [tool, fields] of Object.entries(lists)) {
    const denied = Object.hasOwn(NEVER_VERBATIM, tool) ? (NEVER_VERBATIM[tool] ?? []) : [];
    fields.forEach((field, index) => {
      if (denied.includes(field)) {
        ctx.addIssue({
          code: "custom",
          path: [tool, index],
          message: `${tool}.${field} is never recorded verbatim (it holds file contents or commands)`,
        });
      }
    });
  }
});

/** The `config.tool-audit` section of the settings. */
export const toolAuditConfigSchema = z.strictObject({
  /** The audit file; relative paths resolve against the project directory. */
  file: z.string().min(1).optional(),
  /**
   * "batch" (default): each turn's records reach the kernel at its end, fsync at run end and at
   * most once a second; "every": write and fsync each record.
   */
  fsync: z.enum(["every", "batch"]).default("batch"),
  /** "stop" (default): a write failure stops the run and blocks every call; "warn": log and go on. */
  onWriteError: z.enum(["stop", "warn"]).default("stop"),
  /** Per tool, the argument fields recorded verbatim; a listed tool's list replaces its default. */
  verbatim: verbatimSchema.default({}),
  /**
   * A pino transport that also receives every record (e.g. to ship them to a central store):
   * `{ "target": "pino-socket", "options": { … } }`. The file stays the record of truth; a transport
   * failure is logged, never fatal.
   */
  ship: z
    .strictObject({ target: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) })
    .optional(),
});

/**
 * How each key merges across settings levels (see `ConfigMergeRule`): under managed settings, where
 * records go (`file`, `ship`, the MAC `key`) and what is kept verbatim stay as managed (or the
 * default) decides; a lower level may only make writing stricter (`fsync: "every"`, stop on a
 * write error).
 */
export const toolAuditMergeRules = {
  file: "pinned",
  key: "pinned",
  fsync: { stricter: ["batch", "every"] },
  onWriteError: { stricter: ["warn", "stop"] },
  verbatim: "pinned",
  ship: "pinned",
} as const satisfies { readonly [Key in keyof z.input<typeof toolAuditConfigSchema>]-?: ConfigMergeRule } & {
  readonly key: ConfigMergeRule;
};

/** The parsed configuration of the audit. */
export type ToolAuditConfig = z.output<typeof toolAuditConfigSchema>;

/** The absolute audit file for a configured (or default) path. */
export function resolveAuditFile(file: string | undefined, cwd: string): string {
  return path.resolve(cwd, file ?? DEFAULT_AUDIT_FILE);
}
