import type { AssistantMessage, Message, ToolResultMessage } from "@gatehouse/sdk";
import type { CompactionEntry, MessageEntry, SessionEntry } from "./session-format.ts";

/** Text that stands for a tool call whose result was never recorded (e.g. a crash mid-batch). */
export const NO_RESULT_TEXT = "No result recorded: the run stopped before this tool call finished.";

/** A tool call without a result on the path. */
export interface OrphanedCall {
  /** The assistant message's entry. */
  entryId: string;
  toolCallId: string;
  toolName: string;
}

/** What the model receives for a path, and what had to be synthesized to make it valid. */
export interface BuiltContext {
  messages: Message[];
  orphans: OrphanedCall[];
  /** Messages to append to the session so that it holds exactly this context (the synthesized results). */
  synthesized: ToolResultMessage[];
}

/** The message a compaction summary becomes in the model's context. */
export function summaryMessage(entry: CompactionEntry): Message {
  return {
    role: "user",
    content: `[Summary of the conversation so far]\n${entry.summary}`,
    timestamp: Date.parse(entry.timestamp),
  };
}

/** An explicit error result for a call that never got one, deterministic for replay. */
export function synthesizedResult(call: OrphanedCall, assistant: AssistantMessage): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    content: [{ type: "text", text: NO_RESULT_TEXT }],
    isError: true,
    timestamp: assistant.timestamp,
  };
}

function visibleMessages(path: readonly SessionEntry[]): { entryId: string; message: Message }[] {
  let start = 0;
  let summary: Message | undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i] as SessionEntry;
    if (entry.type !== "compaction") continue;
    const compaction = entry as CompactionEntry;
    const kept = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
    start = kept >= 0 && kept < i ? kept : i;
    summary = summaryMessage(compaction);
    break;
  }
  const out: { entryId: string; message: Message }[] = summary ? [{ entryId: "summary", message: summary }] : [];
  for (let i = start; i < path.length; i++) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "message") out.push({ entryId: entry.id, message: (entry as MessageEntry).message });
  }
  return out;
}

/**
 * The model's context for a path from the root: message entries in order, the latest compaction
 * replacing everything before its kept boundary with its summary, and an explicit error result
 * synthesized for every tool call that has none (placed after that call's recorded results).
 * Contract: custom, label, branch, model_change and unknown entries never reach the model.
 */
export function buildContext(path: readonly SessionEntry[]): BuiltContext {
  const visible = visibleMessages(path);
  const messages: Message[] = [];
  const orphans: OrphanedCall[] = [];
  const synthesized: ToolResultMessage[] = [];
  for (let i = 0; i < visible.length; i++) {
    const { entryId, message } = visible[i] as { entryId: string; message: Message };
    messages.push(message);
    if (message.role !== "assistant") continue;
    const answered = new Set<string>();
    while (i + 1 < visible.length && (visible[i + 1] as { message: Message }).message.role === "toolResult") {
      const result = (visible[++i] as { message: ToolResultMessage }).message;
      answered.add(result.toolCallId);
      messages.push(result);
    }
    // Calls of an errored or aborted message were never meant to run (SPEC §4.1); provider
    // adapters drop or answer them when serialising. Only calls cut off by a crash are orphans.
    if (message.stopReason === "error" || message.stopReason === "aborted") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall" || answered.has(block.id)) continue;
      const orphan = { entryId, toolCallId: block.id, toolName: block.name };
      orphans.push(orphan);
      const result = synthesizedResult(orphan, message);
      synthesized.push(result);
      messages.push(result);
      answered.add(block.id);
    }
  }
  return { messages, orphans, synthesized };
}
