import type { z } from "zod";
import type { ConfigOptions } from "./config-merge.ts";
import type { GatehouseEventOf, GatehouseEventType } from "./events.ts";
import type { ImageContent, Message, TextContent } from "./messages.ts";
import type { ReservedPath, ReservePathOptions } from "./reserved-path.ts";
import type { SandboxProfile } from "./sandbox.ts";
import type { AnyToolDefinition, Logger, ToolEffect } from "./tool.ts";

/** A `tool_call` as a transform-stage handler sees it: `input` may be mutated in place. */
export interface ToolCallEvent {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
}

/** A `tool_call` as an enforce-stage handler sees it: the final input, deeply frozen. */
export interface GuardedToolCallEvent {
  toolCallId: string;
  toolName: string;
  input: Readonly<Record<string, unknown>>;
  /** What the call touches, computed from the final input; `undefined` if the tool declares nothing. */
  effects: readonly ToolEffect[] | undefined;
  /**
   * Records the real file a guard checked for an absolute path. Built-ins that change files
   * re-resolve the path under the file-mutation queue and refuse to write if it now resolves
   * elsewhere (a symlink swapped in between the check and the write).
   */
  pin(absolutePath: string, realPath: string): void;
  /**
   * Confines the call: the tool runs its processes in a sandbox whose layout `profile` plans right
   * before each start (`ctx.sandbox`). Fail closed: a confined call to a tool that does not declare
   * `honoursSandbox`, or one made where no sandbox can start, is blocked by the host in this
   * guard's name. One confinement per call; a second one blocks the call.
   */
  confine(profile: SandboxProfile): void;
  /**
   * Filters what the tool may show or open while it walks directories (`ctx.canRead`): grep, find
   * and ls skip every entry `canRead` refuses and say that entries were withheld. Several guards'
   * filters all apply.
   */
  restrictReads(canRead: (absolutePath: string) => boolean): void;
}

/** What a transform-stage `tool_call` handler may return. */
export type ToolCallTransformResult =
  | { block: true; reason?: string }
  | { input: Record<string, unknown> }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed void
  | void;

/** What an enforce-stage `tool_call` handler may return. */
export type ToolCallEnforceResult =
  | { block: true; reason?: string }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed void
  | void;

/** The result of an executed call, as `tool_result` handlers see it (after earlier patches). */
export interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  input: Readonly<Record<string, unknown>>;
  content: (TextContent | ImageContent)[];
  details: unknown;
  isError: boolean;
}

/** A field-by-field patch of a tool result; omitted fields keep their value, nothing is deep-merged. */
export interface ToolResultPatch {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
  terminate?: boolean;
}

/** Before the host compacts a session: what it is about to summarise. */
export interface SessionBeforeCompactEvent {
  /** The summary proposed so far (by the caller or an earlier handler), if any. */
  summary: string | undefined;
  /** How many of the latest messages stay in the model's context verbatim. */
  keepLast: number;
  /** The messages that would be replaced by the summary, oldest first. */
  messages: readonly Message[];
}

/** What a `session_before_compact` handler may return: a summary to use, or a veto. */
export type SessionBeforeCompactResult =
  | { summary: string }
  | { cancel: true; reason?: string }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that change nothing return void
  | void;

/** Extra context for every handler. */
export interface HandlerContext {
  /** Aborted when the run is aborted or the handler timed out. */
  signal: AbortSignal;
}

type Awaitable<T> = T | Promise<T>;

/** Handlers for observed events: their return value is ignored and their failures never block. */
export type ObserverHandler<K extends GatehouseEventType> = (
  event: GatehouseEventOf<K>,
  ctx: HandlerContext,
) => Awaitable<void>;

/** Options of `api.on`. */
export interface OnOptions {
  /** Only for `tool_call`: "transform" (default) may mutate or block; "enforce" sees frozen input and may only block. */
  stage?: "transform" | "enforce";
}

/** The API an extension's `setup` receives. */
export interface ExtensionAPI {
  /** Adds a tool; a name that matches a built-in overrides it. */
  registerTool(def: AnyToolDefinition): void;
  /** Intercepts a call before it runs; the enforce stage runs after every transform. */
  on(
    event: "tool_call",
    handler: (event: ToolCallEvent, ctx: HandlerContext) => Awaitable<ToolCallTransformResult>,
    opts?: { stage?: "transform" },
  ): void;
  on(
    event: "tool_call",
    handler: (event: GuardedToolCallEvent, ctx: HandlerContext) => Awaitable<ToolCallEnforceResult>,
    opts: { stage: "enforce" },
  ): void;
  /** Patches the result of an executed call before it is emitted and persisted. */
  on(
    event: "tool_result",
    handler: (
      event: ToolResultEvent,
      ctx: HandlerContext,
      // biome-ignore lint/suspicious/noConfusingVoidType: handlers that change nothing return void
    ) => Awaitable<ToolResultPatch | undefined | void>,
  ): void;
  /** Supplies the summary before a session is compacted, or cancels the compaction. */
  on(
    event: "session_before_compact",
    handler: (event: SessionBeforeCompactEvent, ctx: HandlerContext) => Awaitable<SessionBeforeCompactResult>,
  ): void;
  /** Observes any event of the run. */
  on<K extends GatehouseEventType>(event: K, handler: ObserverHandler<K>): void;
  /**
   * Parses this extension's section of the settings (`config.<name>`) with a zod schema.
   * `options.merge` says how each key merges across settings levels, so managed settings are a
   * floor for a guard's security-relevant keys (see `ConfigMergeRule`).
   */
  config<S extends z.ZodType>(schema: S, options?: ConfigOptions): z.output<S>;
  /**
   * Stops the current run with an error (e.g. an audit that can no longer be written): no further
   * tool call starts, no new model turn begins, and the run reports `reason` naming this extension.
   */
  abortRun(reason: string): void;
  /** A logger bound to this extension. */
  logger: Logger;
  /** The project's working directory. */
  cwd: string;
  /**
   * The per-user Gatehouse directory (`GATEHOUSE_HOME`, default `~/.gatehouse`): trust, caches,
   * audit logs and keys live there, out of the workspace. It may not exist yet; see `privateDir`.
   */
  gatehouseHome: string;
  /**
   * A directory under `gatehouseHome` for this extension's state (`privateDir("audit")`), created
   * on first use. Contract: every directory from the home down is mode 0700, owned by the current
   * user and not a symbolic link, or this throws naming the directory.
   */
  privateDir(...segments: string[]): string;
  /**
   * Reserves a file or folder this extension keeps for itself (its log, its key): guards such as
   * protected-paths deny the agent's writes to it, and its reads too with `hide`, wherever it lies.
   * Contract: relative paths resolve against `cwd`; links are resolved when the path exists; the
   * reservation applies at once and ends when this version of the extension unloads.
   */
  reservePath(path: string, options: ReservePathOptions): void;
  /**
   * Every path reserved in this host: by loaded extensions and by Gatehouse itself (the managed
   * settings file and the code it enables). Contract: the array is never mutated; a new one is
   * returned after any change, so a guard may cache what it derives from it by identity.
   */
  reservedPaths(): readonly ReservedPath[];
}

/** A named extension whose `setup` registers tools and handlers. */
export interface ExtensionDefinition {
  name: string;
  setup: (api: ExtensionAPI) => Awaitable<void>;
}

/** An extension module's default export: a definition, or a bare setup function. */
export type ExtensionExport = ExtensionDefinition | ((api: ExtensionAPI) => Awaitable<void>);

/**
 * Declares an extension.
 * Contract: returns the definition unchanged; the host calls `setup` once per load.
 */
export function defineExtension(def: ExtensionDefinition): ExtensionDefinition {
  return def;
}
