import type { z } from "zod";
import type { ImageContent, TextContent } from "./messages.ts";
import type { ToolSandbox } from "./sandbox.ts";

/**
 * What a tool call touches, declared by the tool so that policy can check every tool the same way.
 * Paths are as the model spelled them (relative to the working directory unless absolute).
 */
export type ToolEffect =
  | { kind: "read"; path: string }
  | { kind: "write"; path: string }
  | { kind: "exec"; command: string }
  | { kind: "net"; url: string };

/** What a tool returns; `terminate: true` on every result of a batch ends the run after it. */
export interface ToolResult<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError?: boolean;
  terminate?: boolean;
}

/** A partial result reported while a tool runs; shown live, never persisted. */
export interface ToolProgress<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
}

/** The minimal structured logger a tool or extension receives (a pino child in the host). */
export interface Logger {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** Everything a tool's `execute` may use besides its arguments. */
export interface ToolContext {
  toolCallId: string;
  /** Aborted when the run is aborted or the call must stop; tools must honour it. */
  signal: AbortSignal;
  /** Reports progress; calls after the tool settles are dropped. */
  onUpdate: (partial: ToolProgress) => void;
  /** The working directory relative paths are resolved against. */
  cwd: string;
  logger: Logger;
  /**
   * The real paths guards checked, by absolute path (see `GuardedToolCallEvent.pin`). A tool that
   * writes files should refuse when its target no longer resolves to every pinned real path.
   */
  pinnedTargets?: ReadonlyMap<string, readonly string[]>;
  /**
   * Set when a guard confined the call (`GuardedToolCallEvent.confine`): a tool that declares
   * `honoursSandbox` starts its processes through it and nowhere else.
   */
  sandbox?: ToolSandbox;
  /**
   * Set when a guard restricts reads (`GuardedToolCallEvent.restrictReads`): a tool that walks a
   * directory asks it about each entry it would show or open (by absolute path) and withholds the
   * entries it refuses, saying so in its result.
   */
  canRead?: (absolutePath: string) => boolean;
}

/** How a batch containing this tool is scheduled. */
export type ExecutionMode = "parallel" | "sequential";

/** A zod object schema usable as tool parameters. */
export type ToolParameters = z.ZodType<Record<string, unknown>>;

/**
 * A tool as written by its author: schema, effects and behaviour. The type parameters carry its
 * input (`TParams`), its result details (`TDetails`) and its name (`TName`), so the definition
 * `defineTool` returns is also a typed handle: `isToolCall(event, myTool)` narrows a call to it.
 */
export interface ToolDefinition<
  TParams extends ToolParameters = ToolParameters,
  TDetails = unknown,
  TName extends string = string,
> {
  /** What the model calls it: 1 to 64 letters, digits, `_` or `-` (what model providers accept); another name fails the load. */
  name: TName;
  description: string;
  parameters: TParams;
  /** "sequential" makes every batch that calls this tool run sequentially. */
  executionMode?: ExecutionMode;
  /** Compatibility shim over the raw model arguments; runs before validation. */
  prepareArguments?: (raw: Record<string, unknown>) => Record<string, unknown>;
  /**
   * What a call touches. An override of a built-in that declares none inherits the built-in's for
   * calls whose arguments the built-in takes, and any other call of it is blocked, so an override
   * can never step outside path policy: one that adds or changes arguments declares its effects.
   */
  effects?: (args: z.output<TParams>) => ToolEffect[];
  /**
   * True when every process the tool starts runs through `ctx.sandbox` whenever it is set. A guard
   * may confine calls with `exec` effects; the host refuses a confined call to a tool without this.
   */
  honoursSandbox?: boolean;
  execute: (args: z.output<TParams>, ctx: ToolContext) => Promise<ToolResult<TDetails>> | ToolResult<TDetails>;
}

/** A tool definition with its parameter types erased, as stored in registries. */
// biome-ignore lint/suspicious/noExplicitAny: erasure point for heterogeneous tool lists
export type AnyToolDefinition = ToolDefinition<any, any, string>;

/**
 * Declares a tool with typed, zod-validated parameters.
 * Contract: returns the definition unchanged; typing is the whole point. The result is a typed
 * handle: `registerTool(handle)` adds it, `isToolCall(event, handle)` and `{ tools: [handle] }`
 * narrow events to its input, details and name.
 */
export function defineTool<TParams extends ToolParameters, TDetails = unknown, const TName extends string = string>(
  def: ToolDefinition<TParams, TDetails, TName>,
): ToolDefinition<TParams, TDetails, TName> {
  return def;
}
