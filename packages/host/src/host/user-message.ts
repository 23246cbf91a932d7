import type { UserMessage } from "@gatehouse/sdk";

/**
 * Normalises a prompt given as text into a user message.
 * Contract: a message given as an object is copied (the loop freezes what enters the transcript).
 */
export function toUserMessage(prompt: string | UserMessage, now: number): UserMessage {
  return typeof prompt === "string" ? { role: "user", content: prompt, timestamp: now } : structuredClone(prompt);
}
