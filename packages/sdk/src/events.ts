import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from "./messages.ts";
import type { ToolEffect, ToolProgress, ToolResult } from "./tool.ts";

/** One streaming step of an assistant message, as carried by `message_update`. */
export type AssistantMessageEvent =
  | { type: "text_start"; contentIndex: number }
  | { type: "text_delta"; contentIndex: number; delta: string }
  | { type: "text_end"; contentIndex: number; content: string }
  | { type: "thinking_start"; contentIndex: number }
  | { type: "thinking_delta"; contentIndex: number; delta: string }
  | { type: "thinking_end"; contentIndex: number; content: string }
  | { type: "toolcall_start"; contentIndex: number; id: string; name: string }
  | { type: "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall };

/**
 * How a tool call ended. `executed`: ran and succeeded; `failed`: ran (or its result hook ran)
 * and ended in an error; `blocked`: a `tool_call` handler refused it; `invalid`: arguments did not
 * match the schema (also after a handler's mutation); `unknown`: no tool by that name;
 * `aborted`: the run was aborted while the call was in flight.
 */
export type ToolOutcome = "executed" | "blocked" | "invalid" | "unknown" | "aborted" | "failed";

/** Events of the agent run, in the order fixed by SPEC §4.2. */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: Message[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: Message }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: Message }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | {
      type: "tool_execution_update";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      partialResult: ToolProgress;
    }
  | ToolExecutionEndEvent;

/** The end of one tool call; always emitted, whatever the outcome. */
export interface ToolExecutionEndEvent {
  type: "tool_execution_end";
  toolCallId: string;
  toolName: string;
  /** The arguments that actually ran (after transforms), or the requested ones if it never ran. */
  args: Record<string, unknown>;
  result: ToolResult;
  isError: boolean;
  outcome: ToolOutcome;
  /** The extension that blocked the call (outcome `blocked`) or whose mutation broke it (`invalid`). */
  blockedBy?: string;
  /** Why the call was refused, for `blocked` and `invalid`. */
  reason?: string;
  /** What the call touches, when it was computed for the guards (SPEC §2 `effects`). */
  effects?: readonly ToolEffect[];
}

/** Events the host adds around extensions. */
export type HostEvent =
  | { type: "extension_loaded"; extension: string; source: string; tools: string[] }
  | { type: "extension_error"; extension: string; source?: string; hook?: string; error: string }
  | { type: "extensions_reloaded"; loaded: string[]; failed: string[]; removed: string[] };

/** Every event a subscriber of the host can see. */
export type GatehouseEvent = AgentEvent | HostEvent;

/** The name of any event. */
export type GatehouseEventType = GatehouseEvent["type"];

/** The event object for one event name. */
export type GatehouseEventOf<K extends GatehouseEventType> = Extract<GatehouseEvent, { type: K }>;
