import type { ConfigMergeRule } from "@gatehouse/sdk";
import { z } from "zod";
import { NEVER_VERBATIM } from "./redact.ts";

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
  /**
   * The audit log; relative paths resolve against the project directory. Default: one log per
   * project in the per-user Gatehouse directory (`audit/projects/<id>/audit.jsonl`), out of the
   * workspace. A file inside the workspace is refused unless `allowWorkspaceFile` is true.
   */
  file: z.string().min(1).optional(),
  /** Lets `file` lie inside the workspace, where the agent's own commands could delete or rewrite it. */
  allowWorkspaceFile: z.boolean().default(false),
  /**
   * The key file records and seals are MAC-ed with (e.g. a team key that managed settings name);
   * it must exist and lie outside the workspace. Default: `keys/audit.key` in the per-user
   * Gatehouse directory, created on first use (mode 0600).
   */
  key: z.string().min(1).optional(),
  /**
   * "batch" (default): each turn's records reach the kernel at its end, fsync at run end and at
   * most once a second; "every": write and fsync each record.
   */
  fsync: z.enum(["every", "batch"]).default("batch"),
  /** "stop" (default): a write failure stops the run and blocks every call; "warn": log and go on. */
  onWriteError: z.enum(["stop", "warn"]).default("stop"),
  /**
   * "stop" (default): a log unlinked, renamed or replaced while a run writes to it stops the run;
   * "reopen": the sink opens the path anew and records the gap there.
   */
  onFileReplaced: z.enum(["stop", "reopen"]).default("stop"),
  /** Per tool, the argument fields recorded verbatim; a listed tool's list replaces its default. */
  verbatim: verbatimSchema.default({}),
  /**
   * A pino transport that also receives every record and seal (e.g. to ship them to a central
   * store): `{ "target": "pino-socket", "options": { … } }`. The file stays the record of truth; a
   * transport failure is logged, never fatal.
   */
  ship: z
    .strictObject({ target: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) })
    .optional(),
});

/**
 * How each key merges across settings levels (SPEC §5: managed settings are a floor). Where the
 * log goes, which key signs it, whether it may live in the workspace, what is kept verbatim and
 * where it is shipped stay as managed settings (or the default) say; the failure modes and the
 * durability only move towards the strict end.
 */
export const toolAuditMergeRules = {
  file: "pinned",
  allowWorkspaceFile: "pinned",
  key: "pinned",
  verbatim: "pinned",
  ship: "pinned",
  fsync: { stricter: ["batch", "every"] },
  onWriteError: { stricter: ["warn", "stop"] },
  onFileReplaced: { stricter: ["reopen", "stop"] },
} as const satisfies { readonly [Key in keyof z.input<typeof toolAuditConfigSchema>]-?: ConfigMergeRule };

/** The parsed configuration of the audit. */
export type ToolAuditConfig = z.output<typeof toolAuditConfigSchema>;

/**
 * Keys a file in the project may not set (`api.config`'s `userOnly`): where records are shipped. A
 * transport's options are opaque and steer records anywhere (`pino/file` appends them to any file
 * of the user's: records hold paths the model chose, such as `$(cmd)`, and `~/.bashrc` runs them).
 */
export const TOOL_AUDIT_USER_ONLY = ["ship"] as const;
