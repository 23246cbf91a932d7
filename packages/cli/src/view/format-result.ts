/**
 * What the view says about a finished tool call: its mark (✓ ✗ ⊘) and a one-line detail taken
 * from the outcome, the blocking extension and reason, or the first line of the result text.
 */
import type { ImageContent, TextContent, ToolExecutionEndEvent } from "@gatehouse/sdk";
import { sanitize } from "./ansi.ts";

/** How a mark line is colored: green, red or yellow. */
export type EndTone = "ok" | "error" | "blocked";

/** The mark line of one finished call, before styling. */
export interface EndDescription {
  mark: "✓" | "✗" | "⊘";
  tone: EndTone;
  /** One line, sanitized; empty when a successful call returned no text. */
  detail: string;
}

/** The text of result content, images shown as `[image mime/type]`, sanitized. */
export function contentText(content: readonly (TextContent | ImageContent)[] | undefined): string {
  if (!Array.isArray(content)) return "";
  return sanitize(
    content
      .map((block) => (block.type === "text" ? block.text : block.type === "image" ? `[image ${block.mimeType}]` : ""))
      .join("\n"),
  );
}

/** The first line of `text` that is not blank, trimmed; empty when there is none. */
export function firstLine(text: string): string {
  for (const line of sanitize(text).split("\n")) if (line.trim() !== "") return line.trim();
  return "";
}

/** The last line of `text` that is not blank, trimmed; empty when there is none. */
export function lastLine(text: string): string {
  const lines = sanitize(text).split("\n");
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim() !== "") return lines[i]!.trim();
  return "";
}

const withText = (label: string, text: string): string => (text === "" ? label : `${label}: ${text}`);

/**
 * Describes how a call ended.
 * Contract: `executed` is ✓ with the first result line; `blocked` is ⊘ naming the extension and
 * its reason; every other outcome is ✗ with the outcome's name and the first line of the error.
 */
export function describeEnd(event: ToolExecutionEndEvent): EndDescription {
  const text = firstLine(contentText(event.result?.content));
  const reason = event.reason === undefined ? text : firstLine(event.reason);
  switch (event.outcome) {
    case "executed":
      return { mark: "✓", tone: "ok", detail: text };
    case "blocked": {
      const by = event.blockedBy === undefined ? "blocked" : `blocked by ${firstLine(event.blockedBy)}`;
      return { mark: "⊘", tone: "blocked", detail: withText(by, reason) };
    }
    case "invalid": {
      const label = event.blockedBy === undefined ? "invalid" : `invalid after ${firstLine(event.blockedBy)}`;
      return { mark: "✗", tone: "error", detail: withText(label, reason) };
    }
    default:
      return { mark: "✗", tone: "error", detail: withText(firstLine(String(event.outcome)), text) };
  }
}
