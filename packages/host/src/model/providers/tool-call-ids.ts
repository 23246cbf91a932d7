import { createHash } from "node:crypto";

/**
 * Ids every provider accepts as they are: Anthropic requires `^[a-zA-Z0-9_-]+$`, and OpenAI Chat
 * Completions (and servers that copy it) reject ids longer than 40 characters.
 */
const PORTABLE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** The deterministic wire form of an id that is not portable: `gh_` and 24 hex digits of its SHA-256. */
export function portableToolCallId(key: string): string {
  return `gh_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;
}

/**
 * Assigns the wire id of every tool call of one serialised history.
 * Contract: a portable id that occurs for the first time is sent as it is; anything else (a
 * non-portable id, or the n-th reuse of an id already sent) is sent as `portableToolCallId` of the id
 * and its occurrence number. The mapping depends only on the history up to the call, so a growing
 * transcript keeps its earlier wire ids (and the provider's prompt cache); the transcript itself is
 * never changed. Pair each result with its call and reuse the call's wire id for it.
 */
export class ToolCallIds {
  private readonly seen = new Map<string, number>();

  /** The wire id of the next call with this transcript id. */
  next(id: string): string {
    const occurrence = (this.seen.get(id) ?? 0) + 1;
    this.seen.set(id, occurrence);
    if (occurrence === 1) return PORTABLE_ID.test(id) ? id : portableToolCallId(id);
    return portableToolCallId(`${id}\u0000${occurrence}`);
  }
}
