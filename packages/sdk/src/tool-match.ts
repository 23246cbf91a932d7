import type { z } from "zod";
import type { BuiltinToolInputs, BuiltinToolName } from "./builtin-tools.ts";
import type { GuardedToolCallEvent, ToolCallEvent, ToolResultEvent } from "./hook-events.ts";
import type { ToolDefinition } from "./tool.ts";

/** A tool named by a matcher or `isToolCall`: a tool name, or a typed handle from `defineTool`. */
// biome-ignore lint/suspicious/noExplicitAny: a handle of any parameters, details and name
export type ToolRef = string | ToolDefinition<any, any, string>;

/**
 * Which tools a handler runs for (`api.on(event, handler, { tools })`): a list of names and
 * handles, or a regular expression tested against the tool's name (add `^…$` to match it whole).
 * The handler is not called at all for other tools.
 */
export type ToolMatcher = readonly ToolRef[] | RegExp;

/** The validated input of calls to `T`: a built-in's inferred input, a handle's schema output, else any object. */
export type ToolInputOf<T> = T extends BuiltinToolName
  ? BuiltinToolInputs[T]
  : T extends ToolDefinition<infer P, infer _D, infer _N>
    ? z.output<P>
    : Record<string, unknown>;

/** The result details of `T` when it is a typed handle; unknown otherwise. */
// biome-ignore lint/suspicious/noExplicitAny: only the details position matters here
export type ToolDetailsOf<T> = T extends ToolDefinition<any, infer D, any> ? D : unknown;

/** The name of `T`: the literal of a name or a handle's name. */
// biome-ignore lint/suspicious/noExplicitAny: only the name position matters here
export type ToolNameOf<T> = T extends string ? T : T extends ToolDefinition<any, any, infer N> ? N : string;

/** `E` (a `tool_call` or `tool_result` event) narrowed to calls of the tool `T`. */
export type ToolEventFor<E, T> = E extends GuardedToolCallEvent
  ? GuardedToolCallEvent<ToolInputOf<T>, ToolNameOf<T>>
  : E extends ToolResultEvent
    ? ToolResultEvent<ToolInputOf<T>, ToolDetailsOf<T>, ToolNameOf<T>>
    : E extends ToolCallEvent
      ? ToolCallEvent<ToolInputOf<T>, ToolNameOf<T>>
      : E;

/**
 * `E` as a handler registered with the matcher `M` sees it: a list of names and handles narrows it
 * to the union of calls to those tools; a regular expression or a list of unknown names does not.
 */
export type MatchedEvent<E, M> = M extends readonly (infer R)[] ? (R extends ToolRef ? ToolEventFor<E, R> : never) : E;

/**
 * Narrows a `tool_call` or `tool_result` event to calls of one tool: a built-in by name
 * (`isToolCall(event, "write")` types `event.input` as `{ path: string; content: string }`) or
 * your own tool by its `defineTool` handle (input from its schema, `details` from its results).
 * Contract: compares names only. A tool that overrides a built-in by name is validated against its
 * own schema, so types narrowed by a built-in's name assume an override keeps that input.
 */
export function isToolCall<T extends ToolRef>(
  event: GuardedToolCallEvent,
  tool: T,
): event is GuardedToolCallEvent<ToolInputOf<T>, ToolNameOf<T>>;
export function isToolCall<T extends ToolRef>(
  event: ToolResultEvent,
  tool: T,
): event is ToolResultEvent<ToolInputOf<T>, ToolDetailsOf<T>, ToolNameOf<T>>;
export function isToolCall<T extends ToolRef>(
  event: ToolCallEvent,
  tool: T,
): event is ToolCallEvent<ToolInputOf<T>, ToolNameOf<T>>;
export function isToolCall(event: { toolName: string }, tool: ToolRef): boolean {
  return event.toolName === (typeof tool === "string" ? tool : tool.name);
}
