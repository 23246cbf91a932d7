import type { GatehouseEvent } from "@gatehouse/sdk";

/**
 * The tool calls of a run that started and have not ended, from its events: what a run that
 * stopped unfinished was waiting for (see unfinished.ts).
 */
export function callsInFlight(): { track(event: GatehouseEvent): void; describe(): string | undefined } {
  const calls = new Map<string, string>();
  return {
    track(event) {
      if (event.type === "tool_execution_start") calls.set(event.toolCallId, event.toolName);
      else if (event.type === "tool_execution_end") calls.delete(event.toolCallId);
    },
    describe() {
      if (calls.size === 0) return undefined;
      return [...calls].map(([id, name]) => `tool ${name} (call ${id})`).join(", ");
    },
  };
}
