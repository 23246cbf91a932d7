/**
 * Hand-built `GatehouseEvent`s for view tests, shaped exactly as the loop emits them (SPEC §3, §4.2).
 */
import type {
  AssistantMessage,
  GatehouseEvent,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolExecutionEndEvent,
  ToolOutcome,
  ToolResultMessage,
  UserMessage,
} from "@gatehouse/sdk";

type Args = Record<string, unknown>;

/** A text block. */
export const text = (value: string): TextContent => ({ type: "text", text: value });

/** A thinking block. */
export const thinking = (value: string): ThinkingContent => ({ type: "thinking", thinking: value });

/** A tool-call block. */
export const call = (id: string, name: string, args: Args): ToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

/** A finalized assistant message. */
export function assistant(
  content: AssistantMessage["content"],
  options: { stopReason?: StopReason; errorMessage?: string } = {},
): AssistantMessage {
  const hasCalls = content.some((block) => block.type === "toolCall");
  const message: AssistantMessage = {
    role: "assistant",
    content,
    stopReason: options.stopReason ?? (hasCalls ? "toolUse" : "stop"),
    timestamp: 0,
  };
  if (options.errorMessage !== undefined) message.errorMessage = options.errorMessage;
  return message;
}

/** A user prompt. */
export const user = (value: string): UserMessage => ({ role: "user", content: value, timestamp: 0 });

/** `message_start` then `message_end` of one message; an assistant message also streams its first text. */
export function message(m: UserMessage | AssistantMessage | ToolResultMessage): GatehouseEvent[] {
  if (m.role !== "assistant")
    return [
      { type: "message_start", message: m },
      { type: "message_end", message: m },
    ];
  const partial: AssistantMessage = { ...m, content: [] };
  const first = m.content.find((block): block is TextContent => block.type === "text");
  const streamed: GatehouseEvent[] = first
    ? [
        { type: "message_update", message: partial, assistantMessageEvent: { type: "text_start", contentIndex: 0 } },
        {
          type: "message_update",
          message: partial,
          assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: first.text },
        },
      ]
    : [];
  return [{ type: "message_start", message: partial }, ...streamed, { type: "message_end", message: m }];
}

/** `tool_execution_start`. */
export const start = (id: string, toolName: string, args: Args): GatehouseEvent => ({
  type: "tool_execution_start",
  toolCallId: id,
  toolName,
  args,
});

/** `tool_execution_update` with a text progress. */
export const update = (id: string, toolName: string, args: Args, progress: string): GatehouseEvent => ({
  type: "tool_execution_update",
  toolCallId: id,
  toolName,
  args,
  partialResult: { content: [text(progress)] },
});

/** `tool_execution_end` with a text result; errors unless the outcome is `executed`. */
export function end(
  id: string,
  toolName: string,
  args: Args,
  options: { outcome: ToolOutcome; text: string; blockedBy?: string; reason?: string },
): ToolExecutionEndEvent {
  const event: ToolExecutionEndEvent = {
    type: "tool_execution_end",
    toolCallId: id,
    toolName,
    args,
    result: { content: [text(options.text)], details: {} },
    isError: options.outcome !== "executed",
    outcome: options.outcome,
  };
  if (options.blockedBy !== undefined) event.blockedBy = options.blockedBy;
  if (options.reason !== undefined) event.reason = options.reason;
  return event;
}

/** The tool-result message of an end event. */
export function resultMessage(e: ToolExecutionEndEvent): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: e.toolCallId,
    toolName: e.toolName,
    content: e.result.content,
    details: e.result.details,
    isError: e.isError,
    timestamp: 0,
  };
}
