import type { UserMessage } from "@gatehouse/sdk";

/** Normalises a prompt given as text into a user message. */
export function toUserMessage(prompt: string | UserMessage, now: number): UserMessage {
  return typeof prompt === "string" ? { role: "user", content: prompt, timestamp: now } : prompt;
}
