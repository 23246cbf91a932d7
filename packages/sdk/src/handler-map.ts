import type { GatehouseEventOf, GatehouseEventType } from "./events.ts";
import type {
  GuardedToolCallEvent,
  HandlerContext,
  SessionBeforeCompactEvent,
  SessionBeforeCompactResult,
  ToolCallEnforceResult,
  ToolCallEvent,
  ToolCallTransformResult,
  ToolResultEvent,
  ToolResultPatch,
} from "./hook-events.ts";

/** A value or a promise of it: every handler may be synchronous or asynchronous. */
export type Awaitable<T> = T | Promise<T>;

/** The shape of every handler: the event, the handler context, and what it may return. */
export type Handler<TEvent, TResult> = (event: TEvent, ctx: HandlerContext) => Awaitable<TResult>;

/** The hooks that can change a call or a compaction: what each handler receives and may return. */
export interface InterceptionHooks {
  /** `api.on("tool_call", h)`: may mutate or replace the input, or block. */
  "tool_call:transform": { event: ToolCallEvent; result: ToolCallTransformResult };
  /** `api.on("tool_call", h, { stage: "enforce" })`: sees the final, frozen input; may only block. */
  "tool_call:enforce": { event: GuardedToolCallEvent; result: ToolCallEnforceResult };
  /** `api.on("tool_result", h)`: patches the result of an executed call, field by field. */
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers that change nothing return void
  tool_result: { event: ToolResultEvent; result: ToolResultPatch | undefined | void };
  /** `api.on("session_before_compact", h)`: supplies the summary, or cancels. */
  session_before_compact: { event: SessionBeforeCompactEvent; result: SessionBeforeCompactResult };
}

/**
 * The handler map: every hook an extension can register, keyed as the host registers it, with the
 * event its handler receives and what it may return. Observed events (`agent_start`,
 * `tool_execution_end`, ...) return nothing. `ExtensionAPI.on` and the host's registrations are
 * both derived from this one map.
 */
export type HookMap = InterceptionHooks & {
  // biome-ignore lint/suspicious/noConfusingVoidType: observers return nothing; void accepts any body
  [K in GatehouseEventType]: { event: GatehouseEventOf<K>; result: void };
};

/** The key of one hook of the handler map (`"tool_call:enforce"`, `"tool_result"`, `"turn_end"`, ...). */
export type HookName = keyof HookMap;

/** The handler type of one hook, from the handler map. */
export type HookHandler<K extends HookName> = Handler<HookMap[K]["event"], HookMap[K]["result"]>;

/** Handlers for observed events: their return value is ignored and their failures never block. */
export type ObserverHandler<K extends GatehouseEventType> = HookHandler<K>;
