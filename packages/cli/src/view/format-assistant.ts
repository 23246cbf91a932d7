/**
 * The lines the view prints for a finalized assistant message: its text as written, its
 * thinking shortened to one line, and a clear line when the model stopped on an error.
 */
import type { AssistantMessage } from "@gatehouse/sdk";
import { oneLine, sanitize } from "./ansi.ts";
import { truncateToWidth } from "./text-width.ts";

/** How one printed line of an assistant message is styled. */
export type AssistantLineKind = "text" | "thinking" | "error" | "warning";

/** One printed line of an assistant message, sanitized, before styling. */
export interface AssistantLine {
  kind: AssistantLineKind;
  text: string;
}

/** Columns a thinking block is shortened to. */
const THINKING_WIDTH = 100;

function textLines(text: string): string[] {
  const lines = sanitize(text).split("\n");
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  return lines.map((line) => line.trimEnd());
}

function stopLines(message: AssistantMessage): AssistantLine[] {
  const detail = textLines(message.errorMessage ?? "");
  const [head, ...rest] = detail;
  const label = message.stopReason === "error" ? "model error" : "aborted";
  const fallback = message.stopReason === "error" ? "the model request failed" : "the run was aborted";
  return [
    { kind: "error", text: `${label}: ${head ?? fallback}` },
    ...rest.map((line): AssistantLine => ({ kind: "error", text: `  ${line}` })),
  ];
}

/**
 * Describes a finalized assistant message, leaving out the blocks at the indexes in `skip` (the
 * ones the view already streamed).
 * Contract: text blocks keep their lines (outer blank lines dropped); each thinking block is one
 * line of at most 100 columns; tool calls print nothing here (their start line says it); stopReason
 * `error` or `aborted` adds the error message, `length` a warning, whatever was skipped.
 */
export function describeAssistant(
  message: AssistantMessage,
  options: { skip?: ReadonlySet<number> | undefined } = {},
): AssistantLine[] {
  const lines: AssistantLine[] = [];
  const content = Array.isArray(message.content) ? message.content : [];
  for (const [index, block] of content.entries()) {
    if (options.skip?.has(index)) continue;
    if (block.type === "text") {
      for (const text of textLines(block.text)) lines.push({ kind: "text", text });
    } else if (block.type === "thinking") {
      const thinking = oneLine(block.thinking);
      if (thinking !== "")
        lines.push({ kind: "thinking", text: truncateToWidth(`thinking: ${thinking}`, THINKING_WIDTH) });
    }
  }
  if (message.stopReason === "error" || message.stopReason === "aborted") lines.push(...stopLines(message));
  if (message.stopReason === "length") lines.push({ kind: "warning", text: "stopped: the model hit its output limit" });
  return lines;
}
