import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from "@gatehouse/sdk";
import type { AssistantContent, ModelMessage, ToolResultPart, UserContent } from "ai";
import { ToolCallIds } from "./tool-call-ids.ts";

/** What a result with no content says, since some providers reject an empty tool result. */
const NO_OUTPUT = "(no output)";

/**
 * Our transcript as the AI SDK's messages (the system prompt goes separately).
 * Contract:
 * - users: text and base64 images; empty text is dropped, and so is a user message left empty.
 * - assistants: text and tool calls in source order; thinking is omitted (we keep no provider
 *   signature, and providers reject or ignore unsigned reasoning); a message left empty is dropped.
 * - every tool call is answered right after its message by one tool message with one result per
 *   call, in call order: the first unused result with the same `toolCallId` among the result
 *   messages that directly follow, or else a synthesised error result (SPEC §4.3). Calls of a
 *   message that ended with stopReason `error` or `aborted` are kept and answered the same way (the
 *   loop executed none of them, and the synthesised result says why), so the model learns what
 *   happened. A result that pairs with no call is dropped: providers reject unpaired results.
 * - ids go through `ToolCallIds`, call and result alike, so they stay paired on the wire.
 * The input is only read; the output shares tool-call argument objects with it and nothing else.
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  const ids = new ToolCallIds();
  const out: ModelMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i] as Message;
    i++;
    if (message.role === "user") {
      const content = userContent(message);
      if (content !== undefined) out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const results: ToolResultMessage[] = [];
      for (let next = messages[i]; next?.role === "toolResult"; next = messages[++i]) results.push(next);
      out.push(...assistantTurn(message, results, ids));
    }
    // A toolResult reached here follows no assistant message: nothing to pair it with.
  }
  return out;
}

function userContent(message: UserMessage): UserContent | undefined {
  if (typeof message.content === "string") return message.content === "" ? undefined : message.content;
  const parts: Exclude<UserContent, string> = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text !== "") parts.push({ type: "text", text: block.text });
    } else parts.push({ type: "image", image: block.data, mediaType: block.mimeType });
  }
  return parts.length === 0 ? undefined : parts;
}

function assistantTurn(
  message: AssistantMessage,
  results: readonly ToolResultMessage[],
  ids: ToolCallIds,
): ModelMessage[] {
  const content: Exclude<AssistantContent, string> = [];
  const calls: { call: ToolCall; wireId: string }[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text !== "") content.push({ type: "text", text: block.text });
    } else if (block.type === "toolCall") {
      const wireId = ids.next(block.id);
      calls.push({ call: block, wireId });
      content.push({ type: "tool-call", toolCallId: wireId, toolName: block.name, input: block.arguments });
    }
  }
  if (content.length === 0) return [];
  if (calls.length === 0) return [{ role: "assistant", content }];
  const unused = [...results];
  const answers = calls.map(({ call, wireId }): ToolResultPart => {
    const index = unused.findIndex((result) => result.toolCallId === call.id);
    const result = index === -1 ? undefined : unused.splice(index, 1)[0];
    return result === undefined
      ? synthesized(wireId, call.name, missingReason(message))
      : resultPart(wireId, call.name, result);
  });
  return [
    { role: "assistant", content },
    { role: "tool", content: answers },
  ];
}

function resultPart(toolCallId: string, toolName: string, result: ToolResultMessage): ToolResultPart {
  if (result.content.some((block) => block.type === "image")) {
    const value = result.content.map((block) =>
      block.type === "text"
        ? { type: "text" as const, text: block.text }
        : { type: "image-data" as const, data: block.data, mediaType: block.mimeType },
    );
    return { type: "tool-result", toolCallId, toolName, output: { type: "content", value } };
  }
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n") || NO_OUTPUT;
  const output = result.isError ? { type: "error-text" as const, value: text } : { type: "text" as const, value: text };
  return { type: "tool-result", toolCallId, toolName, output };
}

function synthesized(toolCallId: string, toolName: string, reason: string): ToolResultPart {
  return { type: "tool-result", toolCallId, toolName, output: { type: "error-text", value: reason } };
}

function missingReason(message: AssistantMessage): string {
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    const why = message.errorMessage === undefined ? "" : ` (${message.errorMessage})`;
    return `Not executed: the assistant message ended with stopReason "${message.stopReason}"${why}, so none of its tool calls ran.`;
  }
  return "No result was recorded for this tool call: the run stopped before it finished, so it may or may not have run.";
}
