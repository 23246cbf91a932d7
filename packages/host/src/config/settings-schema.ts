import { z } from "zod";
import { strictObject } from "../common/describe-zod-issues.ts";

/**
 * The schema of one settings file (managed, project local, project or user).
 * Contract: unknown keys are errors that list the allowed keys, so a typo such as `extension` is
 * caught instead of silently ignored; every key is optional; `config` holds one section per
 * extension name, validated later by that extension's own `config(schema)`; an `extensions` entry is
 * a spec string or `{ spec, required }`.
 */
export const settingsFileSchema = strictObject({
  /** Paths or package names; `{ "spec": "...", "required": true }` makes a load failure stop the run. */
  extensions: z
    .array(z.union([z.string().min(1), strictObject({ spec: z.string().min(1), required: z.boolean().optional() })]))
    .optional(),
  disabledExtensions: z.array(z.string().min(1)).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  toolExecution: z.enum(["parallel", "sequential"]).optional(),
  hookTimeoutMs: z.number().int().positive().optional(),
  watch: z.boolean().optional(),
  /** The model to run when none is given on the command line; API keys never belong here. */
  model: strictObject({
    model: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    name: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    maxRetries: z.number().int().min(0).optional(),
    retryBaseMs: z.number().int().min(0).optional(),
    temperature: z.number().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
  }).optional(),
  /** Tool calls with larger arguments (UTF-8 bytes of JSON) are refused as invalid; default 1 MiB. */
  maxArgumentBytes: z.number().int().positive().optional(),
});

/** One validated settings file. */
export type SettingsFile = z.output<typeof settingsFileSchema>;

/** How a batch of tool calls runs: all at once or one after another. */
export type ToolExecutionMode = NonNullable<SettingsFile["toolExecution"]>;
