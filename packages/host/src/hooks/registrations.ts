import type {
  GatehouseEventType,
  GuardedToolCallEvent,
  HandlerContext,
  ObserverHandler,
  SessionBeforeCompactEvent,
  SessionBeforeCompactResult,
  ToolCallEnforceResult,
  ToolCallEvent,
  ToolCallTransformResult,
  ToolResultEvent,
  ToolResultPatch,
} from "@gatehouse/sdk";

type Awaitable<T> = T | Promise<T>;

/** A transform-stage `tool_call` handler. */
export type TransformHandler = (event: ToolCallEvent, ctx: HandlerContext) => Awaitable<ToolCallTransformResult>;
/** An enforce-stage `tool_call` handler. */
export type EnforceHandler = (event: GuardedToolCallEvent, ctx: HandlerContext) => Awaitable<ToolCallEnforceResult>;
/** A `tool_result` handler. */
export type ResultHandler = (
  event: ToolResultEvent,
  ctx: HandlerContext,
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that change nothing return void
) => Awaitable<ToolResultPatch | undefined | void>;

/** A `session_before_compact` handler. */
export type CompactHandler = (
  event: SessionBeforeCompactEvent,
  ctx: HandlerContext,
) => Awaitable<SessionBeforeCompactResult>;

/** One handler an extension registered, in load order. */
export type Registration =
  | { kind: "transform"; extension: string; handler: TransformHandler }
  | { kind: "enforce"; extension: string; handler: EnforceHandler }
  | { kind: "tool_result"; extension: string; handler: ResultHandler }
  | { kind: "session_before_compact"; extension: string; handler: CompactHandler }
  | { kind: "event"; event: GatehouseEventType; extension: string; handler: ObserverHandler<GatehouseEventType> };

/** A handler failure, reported as `extension_error` and logged by the host. */
export interface HandlerFailure {
  extension: string;
  hook: string;
  error: Error;
  timedOut: boolean;
}
