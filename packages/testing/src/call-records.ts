import type { GatehouseEvent, ToolEffect, ToolOutcome, ToolResult } from "@gatehouse/sdk";

/**
 * One tool call as an audit sees it, from its start and end events: what was asked, what ran, and
 * how it ended (blocked, invalid and unknown calls included).
 */
export interface AuditEntry {
  toolCallId: string;
  toolName: string;
  /** The arguments the model sent. */
  requested: Record<string, unknown>;
  /** The arguments that ran (after transforms), or the requested ones if it never ran. */
  args: Record<string, unknown>;
  outcome: ToolOutcome;
  isError: boolean;
  /** The extension that blocked the call, or whose change made it invalid. */
  blockedBy?: string;
  /** Why it was refused. */
  reason?: string;
  /** What the call touches, when the guards computed it. */
  effects?: readonly ToolEffect[];
  /** The final result (after `tool_result` handlers). */
  result: ToolResult;
  /** The result's text blocks, joined by newlines. */
  text: string;
}

/** The text blocks of a result, joined. */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** Collects one `AuditEntry` per ended call, in the order the calls ended. */
export class CallRecorder {
  readonly entries: AuditEntry[] = [];
  readonly #requested = new Map<string, Record<string, unknown>>();

  /** Feeds one event of the run. */
  observe(event: GatehouseEvent): void {
    if (event.type === "tool_execution_start") this.#requested.set(event.toolCallId, event.args);
    if (event.type !== "tool_execution_end") return;
    const entry: AuditEntry = {
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      requested: this.#requested.get(event.toolCallId) ?? event.args,
      args: event.args,
      outcome: event.outcome,
      isError: event.isError,
      result: event.result,
      text: resultText(event.result),
    };
    if (event.blockedBy !== undefined) entry.blockedBy = event.blockedBy;
    if (event.reason !== undefined) entry.reason = event.reason;
    if (event.effects !== undefined) entry.effects = event.effects;
    this.entries.push(entry);
  }
}
