/**
 * Hand-built `GatehouseEvent`s for view tests, shaped exactly as the loop emits them (SPEC §3, §4.2).
 */
import type {
  AssistantMessage,
  AssistantMessageEvent,
  GatehouseEvent,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolExecutionEndEvent,
  ToolOutcome,
  ToolResultMessage,
  Usage,
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
  options: { stopReason?: StopReason; errorMessage?: string; usage?: Usage } = {},
): AssistantMessage {
  const hasCalls = content.some((block) => block.type === "toolCall");
  const message: AssistantMessage = {
    role: "assistant",
    content,
    stopReason: options.stopReason ?? (hasCalls ? "toolUse" : "stop"),
    timestamp: 0,
  };
  if (options.errorMessage !== undefined) message.errorMessage = options.errorMessage;
  if (options.usage !== undefined) message.usage = options.usage;
  return message;
}

/** A user prompt. */
export const user = (value: string): UserMessage => ({ role: "user", content: value, timestamp: 0 });

/** Splits `value` into deltas of at most `size` characters, as the scripted model does. */
export function pieces(value: string, size = 16): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

/**
 * The `message_update`s that stream `m`'s content block by block in deltas of `size` characters,
 * mutating `partial` in place as a model adapter does (tool arguments fill in key by key).
 */
export function streamUpdates(m: AssistantMessage, partial: AssistantMessage, size = 16): GatehouseEvent[] {
  const events: GatehouseEvent[] = [];
  const push = (assistantMessageEvent: AssistantMessageEvent) =>
    events.push({ type: "message_update", message: partial, assistantMessageEvent });
  for (const [contentIndex, block] of m.content.entries()) {
    if (block.type === "text") {
      const open = text("");
      partial.content.push(open);
      push({ type: "text_start", contentIndex });
      for (const delta of pieces(block.text, size)) {
        open.text += delta;
        push({ type: "text_delta", contentIndex, delta });
      }
      push({ type: "text_end", contentIndex, content: block.text });
    } else if (block.type === "thinking") {
      const open = thinking("");
      partial.content.push(open);
      push({ type: "thinking_start", contentIndex });
      for (const delta of pieces(block.thinking, size)) {
        open.thinking += delta;
        push({ type: "thinking_delta", contentIndex, delta });
      }
      push({ type: "thinking_end", contentIndex, content: block.thinking });
    } else {
      const open = call(block.id, block.name, {});
      partial.content.push(open);
      push({ type: "toolcall_start", contentIndex, id: block.id, name: block.name });
      for (const [key, value] of Object.entries(block.arguments)) {
        open.arguments = { ...open.arguments, [key]: value };
        push({ type: "toolcall_delta", contentIndex, delta: JSON.stringify({ [key]: value }) });
      }
      push({ type: "toolcall_end", contentIndex, toolCall: block });
    }
  }
  return events;
}

/**
 * `message_start` then `message_end` of one message; an assistant message streams every block in
 * between, in deltas of 16 characters, as the loop relays the scripted model.
 */
export function message(m: UserMessage | AssistantMessage | ToolResultMessage): GatehouseEvent[] {
  if (m.role !== "assistant")
    return [
      { type: "message_start", message: m },
      { type: "message_end", message: m },
    ];
  const partial: AssistantMessage = { ...m, content: [] };
  return [
    { type: "message_start", message: partial },
    ...streamUpdates(m, partial),
    { type: "message_end", message: m },
  ];
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
