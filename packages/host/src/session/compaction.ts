import type { MessageEntry, SessionEntry } from "./session-format.ts";

/**
 * The id of the first entry to keep when compacting a path down to its last `keepLast` messages,
 * or undefined when there is nothing before it to summarise.
 * Contract: the boundary moves back so the kept part never starts with tool results whose call
 * would be summarised away (providers reject a result without its call).
 */
export function compactionBoundary(path: readonly SessionEntry[], keepLast: number): string | undefined {
  const messages = path.filter((e): e is MessageEntry => e.type === "message");
  let start = Math.max(0, messages.length - Math.max(0, keepLast));
  while (start > 0 && messages[start]?.message.role === "toolResult") start--;
  if (start === 0) return undefined;
  return messages[start]?.id;
}
