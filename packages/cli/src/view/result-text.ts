/**
 * The rows of a tool's text output that a call block shows: sanitized, secret shapes scrubbed,
 * outer blank lines dropped, and long outputs cut to their first and last rows with "… +N lines".
 */
import type { ImageContent, TextContent } from "@gatehouse/sdk";
import { scrubSecrets } from "@gatehouse/tool-audit";
import { sanitize } from "./ansi.ts";

/** Text of result content this long or longer is only looked at up to here. */
const MAX_TEXT = 64 * 1024;

/** The text of result content, images shown as `[image mime/type]`, sanitized and scrubbed. */
export function contentText(content: readonly (TextContent | ImageContent)[] | undefined): string {
  if (!Array.isArray(content)) return "";
  const text = content
    .map((block) => (block.type === "text" ? block.text : block.type === "image" ? `[image ${block.mimeType}]` : ""))
    .join("\n");
  return scrubSecrets(sanitize(text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text));
}

/** The lines of `text` without trailing spaces and without blank lines at either end. */
export function textLines(text: string): string[] {
  const lines = text.split("\n").map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** What a long output is reduced to: the rows kept, and where the hidden ones were. */
export interface Excerpt {
  head: string[];
  /** Rows left out between head and tail (0: nothing hidden). */
  hidden: number;
  tail: string[];
}

/**
 * Keeps all of `lines` when there are at most `max`, else the first `max - 3` and the last two
 * with the count of the rest between them.
 */
export function excerpt(lines: readonly string[], max = 5): Excerpt {
  if (lines.length <= max) return { head: [...lines], hidden: 0, tail: [] };
  const tail = 2;
  const head = Math.max(1, max - tail - 1);
  return { head: lines.slice(0, head), hidden: lines.length - head - tail, tail: lines.slice(-tail) };
}

/** The last line of `text` that is not blank, trimmed; empty when there is none. */
export function lastLine(text: string): string {
  const lines = textLines(sanitize(text));
  return (lines[lines.length - 1] ?? "").trim();
}

/** The first line of `text` that is not blank, trimmed; empty when there is none. */
export function firstLine(text: string): string {
  for (const line of sanitize(text).split("\n")) if (line.trim() !== "") return line.trim();
  return "";
}
