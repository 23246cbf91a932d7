import type { GatehouseEvent } from "@gatehouse/sdk";

/** Writes every event as one JSON line (SPEC §3 names and fields), for machines. */
export function jsonLines(out: NodeJS.WritableStream): {
  onEvent(event: GatehouseEvent): void;
  close(): void;
  noteInSummary(note: string): void;
  interrupt(): void;
} {
  return {
    onEvent(event) {
      out.write(`${JSON.stringify(event)}\n`);
    },
    close() {},
    // Machines get events only: a remark for people goes to stderr, never into the event stream.
    noteInSummary() {},
    interrupt() {},
  };
}
