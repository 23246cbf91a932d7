import { z } from "zod";
import { strictObject } from "../common/describe-zod-issues.ts";

/** The tool events a Claude-style command hook can listen to. */
export const COMMAND_HOOK_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure"] as const;

/** How the agent hooks treat shell calls, from the loosest to the strictest. */
export const AGENT_BASH_MODES = ["analyze", "strict", "deny"] as const;

/**
 * The longest delay Node's timers can wait (2^31-1 ms, about 24.8 days): a larger one is replaced
 * by 1 ms with a TimeoutOverflowWarning, which would turn a generous timeout into an instant one.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** One command of a hook group: run with the event as JSON on stdin. */
const commandHookSchema = strictObject({
  type: z.literal("command"),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Seconds, as in Claude Code (default 60). */
  timeout: z.number().positive().max(3600).optional(),
});

/** A matcher (exact tool name, `A|B` list, or a regular expression; empty or `*` = every tool) and its commands. */
const commandHookGroupSchema = strictObject({
  matcher: z
    .string()
    .optional()
    .refine((m) => m === undefined || validMatcher(m), { message: "is not a valid regular expression" }),
  hooks: z.array(commandHookSchema).min(1),
});

/** Which arguments of an agent tool hold the paths it reads, writes or runs. */
const toolMappingSchema = strictObject({
  read: z.array(z.string().min(1)).optional(),
  write: z.array(z.string().min(1)).optional(),
  exec: z.array(z.string().min(1)).optional(),
});

/** Whether `matchesTool` can use a matcher: `*` (every tool, as in Claude Code) or a regular expression. */
function validMatcher(matcher: string): boolean {
  if (matcher === "*") return true;
  try {
    new RegExp(matcher);
    return true;
  } catch {
    return false;
  }
}

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
  hookTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS).optional(),
  watch: z.boolean().optional(),
  /** The model to run when none is given on the command line; API keys never belong here. */
  model: strictObject({
    model: z.string().min(1).optional(),
    baseURL: z.string().url().optional(),
    name: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    maxRetries: z.number().int().min(0).optional(),
    retryBaseMs: z.number().int().min(0).max(MAX_TIMER_MS).optional(),
    temperature: z.number().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
  }).optional(),
  /** Tool calls with larger arguments (UTF-8 bytes of JSON) are refused as invalid; default 1 MiB. */
  maxArgumentBytes: z.number().int().positive().optional(),
  /**
   * Claude-style command hooks run as Gatehouse handlers (`PreToolUse`, `PostToolUse`,
   * `PostToolUseFailure`); every level's entries add up, managed settings' first.
   */
  hooks: z.partialRecord(z.enum(COMMAND_HOOK_EVENTS), z.array(commandHookGroupSchema)).optional(),
  /** How `gatehouse hook claude-code|codex` maps the agents' tools and treats their shell. */
  agentHooks: strictObject({
    /** Per agent tool name (e.g. `mcp__fs__write_file`): which arguments hold paths it reads or writes. */
    tools: z.record(z.string().min(1), toolMappingSchema).optional(),
    /**
     * "strict" (default): refuse every command whose effects the path analysis does not model (the
     * agent runs it without Gatehouse's sandbox); "analyze": best effort, any program may run;
     * "deny": refuse every shell call.
     */
    bash: z.enum(AGENT_BASH_MODES).optional(),
  }).optional(),
});

/** One validated settings file. */
export type SettingsFile = z.output<typeof settingsFileSchema>;

/** One `hooks.<event>` entry of a settings file. */
export type CommandHookGroup = z.output<typeof commandHookGroupSchema>;

/** A tool event a command hook listens to. */
export type CommandHookEvent = (typeof COMMAND_HOOK_EVENTS)[number];

/** The `agentHooks` section of a settings file. */
export type AgentHookSettings = NonNullable<SettingsFile["agentHooks"]>;

/** How a batch of tool calls runs: all at once or one after another. */
export type ToolExecutionMode = NonNullable<SettingsFile["toolExecution"]>;
