/**
 * The rows the view prints for a finalized assistant message: its text wrapped and marked, its
 * thinking shortened to one row, and a clear row when the model stopped on an error.
 */
import type { AssistantMessage } from "@gatehouse/sdk";
import { sanitize } from "./ansi.ts";
import { textLines } from "./result-text.ts";
import type { LineStyle } from "./styled-lines.ts";
import { textLayout, textRows } from "./text-stream.ts";
import { thinkingRow } from "./thinking-stream.ts";
import { wrapWords } from "./word-wrap.ts";

function stopRows(message: AssistantMessage, style: LineStyle, interrupted: boolean): string[] {
  const p = style.palette;
  const [head, ...rest] = textLines(sanitize(message.errorMessage ?? ""));
  const label = message.stopReason === "error" ? "model error" : interrupted ? "interrupted" : "aborted";
  const fallback =
    message.stopReason === "error"
      ? "the model request failed"
      : interrupted
        ? "the answer was cut off"
        : "the run was aborted";
  const tone = message.stopReason === "error" ? p.red : p.yellow;
  return [
    ...wrapWords(`${label}: ${head ?? fallback}`, { width: style.width, first: "✗ ", rest: "  " }),
    ...rest.flatMap((line) => wrapWords(line, { width: style.width, first: "  ", rest: "  " })),
  ].map((row) => tone(row));
}

/**
 * Describes a finalized assistant message, leaving out the blocks at the indexes in `skip` (the
 * ones the view already streamed).
 * Contract: text blocks become the rows streaming them writes (wrapped at spaces, `● ` first);
 * each thinking block is one dim row; tool calls print nothing here (their block says it);
 * stopReason `error` or `aborted` adds the error message, `length` a warning, whatever was skipped.
 */
export function describeAssistant(
  message: AssistantMessage,
  options: { skip?: ReadonlySet<number> | undefined; style: LineStyle; interrupted?: boolean },
): string[] {
  const { style } = options;
  const p = style.palette;
  const rows: string[] = [];
  const content = Array.isArray(message.content) ? message.content : [];
  for (const [index, block] of content.entries()) {
    if (options.skip?.has(index)) continue;
    if (block.type === "text") rows.push(...textRows(block.text, textLayout(style.width, p.bold)));
    else if (block.type === "thinking") {
      const row = thinkingRow(block.thinking, style.width);
      if (row !== "") rows.push(p.dim(p.italic(row)));
    }
  }
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    rows.push(...stopRows(message, style, options.interrupted === true));
  }
  if (message.stopReason === "length") rows.push(p.yellow("⚠ stopped: the model hit its output limit"));
  return rows;
}
