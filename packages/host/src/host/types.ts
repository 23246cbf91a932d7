import type {
  AnyToolDefinition,
  ExecutionMode,
  ExtensionDefinition,
  GatehouseEvent,
  Message,
  ReservedPath,
  StopReason,
  ToolEffect,
  UserMessage,
} from "@gatehouse/sdk";
import type { Logger } from "pino";
import type { ExtensionRecord } from "../extensions/types.ts";
import type { Model } from "../model/types.ts";
import type { Session } from "../session/session.ts";
import type { ToolInfo } from "../tools/tool-registry.ts";

/** Options of `createHost`. */
export interface HostOptions {
  /** The project directory: tools resolve relative paths against it. */
  cwd: string;
  model: Model;
  /** Extra tools; a name that matches a built-in overrides it. */
  tools?: AnyToolDefinition[];
  /** In-code extensions, set up in order, with the same API as extension files. */
  extensions?: ExtensionDefinition[];
  /** Per-extension configuration sections, keyed by extension name. */
  config?: Record<string, unknown>;
  /** "parallel" (default) or "sequential" for every batch. */
  toolExecution?: ExecutionMode;
  /** Time limit for each extension handler and async setup, in ms (default 5000). */
  hookTimeoutMs?: number;
  /** Replaces the default system prompt (which lists the active tools, refreshed every turn). */
  systemPrompt?: string;
  /**
   * Tool calls whose arguments are larger than this many UTF-8 bytes (as JSON) are invalid calls,
   * and their argument text is not kept past it (default 1 MiB). With `discover`, the smallest of
   * this and every settings level's `maxArgumentBytes` applies.
   */
  maxArgumentBytes?: number;
  /** Ends a run after this many turns (model requests), as a safety limit. */
  maxTurns?: number;
  /** A pino logger; default: warnings and errors to stderr. */
  logger?: Logger;
  /** Receives every event from the start, including extension loading. */
  onEvent?: (event: GatehouseEvent) => void;
  /** Messages the context starts with (e.g. a resumed session). */
  messages?: Message[];
  /**
   * Load the project's settings hierarchy and extensions (SPEC §5): managed settings,
   * `.gatehouse/settings(.local).json`, `.gatehouse/extensions/`, and the user's under GATEHOUSE_HOME.
   */
  discover?: boolean;
  /** Run the project's own extension code without a `gatehouse trust` record (one host only). */
  trust?: boolean;
  /**
   * Build the host only to inspect it (what `gatehouse extensions` and `gatehouse policy check` do):
   * a required guard that fails is reported in `extensions()` instead of rejecting createHost.
   * `run()` still refuses to start while a required guard is not running.
   */
  inspect?: boolean;
  /** Reload extensions and settings when their files change; implies `discover`. */
  watch?: boolean;
  /**
   * Where package names in settings resolve besides the project: paths or file URLs of modules
   * whose installation provides packages (default: the host's own). The `gatehouse` CLI passes its
   * own, so the first-party plugins it depends on resolve by name in any project.
   */
  packageBases?: string[];
  /** Environment for GATEHOUSE_HOME and GATEHOUSE_MANAGED_SETTINGS (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * A session file: the context starts from its current leaf, and every message is recorded as it
   * is finalized (SPEC §4.3). Takes precedence over `messages`.
   */
  session?: Session;
}

/** What one run produced. */
export interface RunResult {
  /** Every message the run added, the prompt included. */
  messages: Message[];
  /** The stop reason of the last assistant message. */
  stopReason: StopReason | undefined;
  errorMessage?: string;
  aborted: boolean;
  /** True when the run ended because it reached `maxTurns`. */
  maxTurnsReached?: boolean;
  /** Set when an extension stopped the run with `api.abortRun`. */
  stoppedBy?: { extension: string; reason: string };
  /**
   * Set when a guard ended the run by blocking a call with `{ block: true, reason, terminate: true }`:
   * the batch finished, and no further turn, steering or follow-up ran.
   */
  terminatedBy?: { extension: string; reason: string };
}

/** Options of one run. */
export interface RunOptions {
  signal?: AbortSignal;
}

/** What the pipeline would decide for one hypothetical call (stages 4–7, nothing executed). */
export interface CheckResult {
  outcome: "allowed" | "blocked" | "invalid" | "unknown";
  /** The input the tool would run with (after transforms), or the requested one. */
  input: Record<string, unknown>;
  /** The call's effects, when the tool declares them and the arguments were valid. */
  effects?: readonly ToolEffect[] | undefined;
  blockedBy?: string;
  reason?: string;
  /** The extension that would run the call in its sandbox, when one confines it. */
  confinedBy?: string;
}

/** What `compact` did. */
export type CompactResult =
  | { compacted: true; entryId: string; summarized: number; kept: number }
  | { compacted: false; reason: string };

/** An embedded Gatehouse: the full tool pipeline over a model. */
export interface Host {
  /** Runs the agent loop from a prompt until it stops. One run at a time. */
  run(prompt: string | UserMessage, options?: RunOptions): Promise<RunResult>;
  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: (event: GatehouseEvent) => void): () => void;
  /** Queues a message injected at the next turn boundary of the current run. */
  steer(message: string | UserMessage): void;
  /** Queues a message processed when the agent would otherwise stop. */
  followUp(message: string | UserMessage): void;
  /** Aborts the current run: no further tool call starts and no new model turn begins. */
  abort(): void;
  /** The context the next model request receives. */
  readonly messages: readonly Message[];
  /**
   * Runs lookup, validation and the tool_call hooks (both stages) for one hypothetical call,
   * without executing it or emitting events: what `gatehouse policy check` reports.
   */
  check(toolName: string, args: Record<string, unknown>): Promise<CheckResult>;
  /** The active tools with their sources. */
  tools(): ToolInfo[];
  /** Every extension with its status, tools, handlers and errors. */
  extensions(): ExtensionRecord[];
  /** The paths Gatehouse and the loaded extensions reserved (`api.reservePath`): what guards keep out of reach. */
  reservedPaths(): readonly ReservedPath[];
  /**
   * Re-reads settings and extensions (what a watched file change does): at once when idle, at the
   * next turn boundary during a run. Resolves when the result is in effect.
   */
  reload(): Promise<void>;
  /** The session file, when the host records one. */
  readonly session: Session | undefined;
  /** Moves the session's leaf to an earlier entry; the next run continues from there. Not during a run. */
  branch(entryId: string): void;
  /**
   * Compacts the model's context: everything before the last `keepLast` messages becomes a
   * summary (given here or by a `session_before_compact` handler); the session file keeps every
   * entry and the audit is never touched. Returns what happened. Not during a run.
   */
  compact(options: { summary?: string; keepLast: number }): Promise<CompactResult>;
  /**
   * Unloads every extension, stops watching and releases resources. A run in progress is aborted
   * and awaited first; afterwards `run`, `check` and `reload` are refused (GH_USAGE), since the
   * guards they rely on are gone.
   */
  close(): Promise<void>;
}
