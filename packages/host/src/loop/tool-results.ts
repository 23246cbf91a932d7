import type { ToolCall, ToolEffect, ToolOutcome, ToolResult, ToolResultMessage } from "@gatehouse/sdk";

/** One call after stages 3–11: everything needed for its end event and its result message. */
export interface FinalizedCall {
  toolCall: ToolCall;
  args: Record<string, unknown>;
  result: ToolResult;
  isError: boolean;
  outcome: ToolOutcome;
  blockedBy?: string | undefined;
  reason?: string | undefined;
  effects?: readonly ToolEffect[] | undefined;
  /** Set when a guard blocked the call with `terminate: true`: the run ends after this batch. */
  halt?: RunHalt | undefined;
}

/** Who ended the run after a batch, and why (a guard's `{ block, reason, terminate: true }`). */
export interface RunHalt {
  by: string;
  reason: string;
}

/** A result carrying only an error text. */
export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], details: {} };
}

/** An immediate (never executed) error outcome of stages 4–7. */
export function immediate(
  toolCall: ToolCall,
  outcome: ToolOutcome,
  text: string,
  extra?: {
    blockedBy?: string;
    reason?: string;
    args?: Record<string, unknown>;
    effects?: readonly ToolEffect[] | undefined;
  },
): FinalizedCall {
  return {
    toolCall,
    args: extra?.args ?? toolCall.arguments,
    result: errorResult(text),
    isError: true,
    outcome,
    blockedBy: extra?.blockedBy,
    reason: extra?.reason,
    effects: extra?.effects,
  };
}

/** The persisted tool-result message of a finalized call. */
export function toResultMessage(call: FinalizedCall, timestamp: number): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.toolCall.id,
    toolName: call.toolCall.name,
    content: call.result.content,
    isError: call.isError,
    timestamp,
  };
  if (call.result.details !== undefined) message.details = call.result.details;
  return message;
}
