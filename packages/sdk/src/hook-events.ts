import type { ImageContent, Message, TextContent } from "./messages.ts";
import type { SandboxProfile } from "./sandbox.ts";
import type { ToolEffect } from "./tool.ts";

/**
 * A `tool_call` as a transform-stage handler sees it: `input` is validated and may be mutated in
 * place. `TInput` and `TName` are narrowed by `isToolCall` or a `tools` matcher.
 */
export interface ToolCallEvent<TInput = Record<string, unknown>, TName extends string = string> {
  toolCallId: string;
  toolName: TName;
  input: TInput;
}

/**
 * What a file was when a guard checked it: its device and inode (of the entry itself, as `lstat`
 * sees it), or "absent" when nothing was there.
 */
export type CheckedFileIdentity = { dev: number; ino: number } | "absent";

/** A `tool_call` as an enforce-stage handler sees it: the final input, deeply frozen. */
export interface GuardedToolCallEvent<TInput = Record<string, unknown>, TName extends string = string> {
  toolCallId: string;
  toolName: TName;
  input: Readonly<TInput>;
  /** What the call touches, computed from the final input; `undefined` if the tool declares nothing. */
  effects: readonly ToolEffect[] | undefined;
  /**
   * Records the real file a guard checked for an absolute path. Built-ins that change files
   * re-resolve the path under the file-mutation queue and refuse to write if it now resolves
   * elsewhere (a symlink swapped in between the check and the write). `identity`, when the guard
   * looked at the file itself, is what it was then: the built-ins refuse to read another file (and
   * to write through a hard link that was not there) at that path, and the host does not look
   * again. Guards that disagree about a file's identity make every use of it fail.
   */
  pin(absolutePath: string, realPath: string, identity?: CheckedFileIdentity): void;
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

/**
 * A refusal from a `tool_call` handler: the call does not run and the model gets `reason` as an
 * error result. `terminate: true` also ends the run once the current batch is finished: no
 * further model turn, steering or follow-up (the run reports which extension ended it).
 */
export interface ToolCallBlock {
  block: true;
  reason?: string;
  terminate?: boolean;
}

/** What a transform-stage `tool_call` handler may return: a block, a replaced input, or nothing. */
export type ToolCallTransformResult =
  | ToolCallBlock
  | { input: Record<string, unknown> }
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed void
  | void;

/** What an enforce-stage `tool_call` handler may return: a block, or nothing. */
export type ToolCallEnforceResult =
  | ToolCallBlock
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed void
  | void;

/** The fields every `tool_result` event has, whatever the outcome. */
interface ToolResultBase<TInput, TName extends string> {
  toolCallId: string;
  toolName: TName;
  input: Readonly<TInput>;
  content: (TextContent | ImageContent)[];
}

/**
 * The result of an executed call, as `tool_result` handlers see it (after earlier patches).
 * `details` has the tool's details type (`defineTool`'s `TDetails`, known after `isToolCall` or a
 * `tools` matcher) when the result is not an error; an error result may carry anything.
 */
export type ToolResultEvent<
  TInput = Record<string, unknown>,
  TDetails = unknown,
  TName extends string = string,
> = ToolResultBase<TInput, TName> &
  ({ isError: false; details: TDetails | undefined } | { isError: true; details: unknown });

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
