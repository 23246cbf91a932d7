import type { GatehouseEventType, ToolEventName } from "@gatehouse/sdk";

const OBSERVABLE: Record<GatehouseEventType, true> = {
  agent_start: true,
  agent_end: true,
  turn_start: true,
  turn_end: true,
  message_start: true,
  message_update: true,
  message_end: true,
  tool_execution_start: true,
  tool_execution_update: true,
  tool_execution_end: true,
  extension_loaded: true,
  extension_error: true,
  extensions_reloaded: true,
};

/** Every event an extension may observe with `api.on` (the record above fails to compile if one is missing). */
export const OBSERVABLE_EVENTS: readonly GatehouseEventType[] = Object.keys(OBSERVABLE) as GatehouseEventType[];

/** Every name `api.on` accepts: the observable events plus the two interception points. */
export const HANDLER_EVENTS: readonly string[] = [
  ...OBSERVABLE_EVENTS,
  "tool_call",
  "tool_result",
  "session_before_compact",
];

/** True if `name` is an event an extension may observe. */
export function isObservableEvent(name: string): name is GatehouseEventType {
  return Object.hasOwn(OBSERVABLE, name);
}

const TOOL_EVENTS: Record<ToolEventName, true> = {
  tool_call: true,
  tool_result: true,
  tool_execution_start: true,
  tool_execution_update: true,
  tool_execution_end: true,
};

/** True for the events of one tool call: the ones a `tools` matcher applies to (the SDK's `ToolEventName`). */
export function isToolEvent(name: string): name is ToolEventName {
  return Object.hasOwn(TOOL_EVENTS, name);
}
