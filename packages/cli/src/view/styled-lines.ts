/**
 * Turns described events into finished lines: marks, colors and width. Every line here is one
 * terminal row except assistant text, which keeps its length and lets the terminal wrap it.
 */
import type { GatehouseEventOf, ToolExecutionEndEvent } from "@gatehouse/sdk";
import type { Palette, Style } from "./ansi.ts";
import { formatArgs } from "./format-args.ts";
import type { AssistantLine } from "./format-assistant.ts";
import { describeEnd, type EndTone, firstLine } from "./format-result.ts";
import { displayWidth, truncateToWidth } from "./text-width.ts";

/** How lines are styled and how wide a row may be. */
export interface LineStyle {
  palette: Palette;
  /** Columns a row may take. */
  width: number;
}

/** The `tool args` head of a mark line is cut to at most this many columns, to leave room for the detail. */
const END_HEAD_WIDTH = 48;

/** Tool names are cut to this many columns so a silly name cannot push the rest off the row. */
const NAME_WIDTH = 32;

/** A tool name as the view shows it: one line, at most 32 columns, `(unnamed)` when blank. */
export function toolLabel(toolName: string): string {
  return truncateToWidth(firstLine(toolName) || "(unnamed)", NAME_WIDTH);
}

function toneStyle(palette: Palette, tone: EndTone): Style {
  return tone === "ok" ? palette.green : tone === "blocked" ? palette.yellow : palette.red;
}

/** The line printed when a call starts: `→ write playground/x.txt (12 chars)`. */
export function startLine(event: GatehouseEventOf<"tool_execution_start">, style: LineStyle): string {
  const p = style.palette;
  const summary = formatArgs({ toolName: event.toolName, args: event.args });
  const args = summary === "" ? "" : ` ${summary}`;
  return truncateToWidth(`${p.dim("→")} ${p.bold(toolLabel(event.toolName))}${args}`, style.width);
}

/** The mark line printed when a call ends: `✓ read a.ts · first line`, `⊘ write .env · blocked by …`. */
export function endLine(event: ToolExecutionEndEvent, style: LineStyle): string {
  const p = style.palette;
  const { mark, tone, detail } = describeEnd(event);
  const name = toolLabel(event.toolName);
  const summary = formatArgs({ toolName: event.toolName, args: event.args });
  const rest = summary === "" ? "" : truncateToWidth(` ${summary}`, END_HEAD_WIDTH - displayWidth(name));
  const color = toneStyle(p, tone);
  const tail = detail === "" ? "" : ` ${p.dim("·")} ${tone === "ok" ? p.dim(detail) : color(detail)}`;
  return truncateToWidth(`${color(mark)} ${p.bold(name)}${rest}${tail}`, style.width);
}

/** One line of an assistant message; text is left whole, the rest is cut to the row. */
export function assistantLine(line: AssistantLine, style: LineStyle): string {
  const p = style.palette;
  switch (line.kind) {
    case "text":
      return line.text;
    case "thinking":
      return p.dim(truncateToWidth(line.text, style.width));
    case "error":
      return p.red(line.text.startsWith("  ") ? line.text : `✗ ${line.text}`);
    case "warning":
      return p.yellow(`⚠ ${line.text}`);
  }
}

/** A warning line about the host or an extension: `⚠ extension x failed in tool_call: …`. */
export function warningLine(text: string, style: LineStyle): string {
  return style.palette.yellow(`⚠ ${text}`);
}

/** An informational line: `↻ extensions reloaded: …`. */
export function noteLine(text: string, style: LineStyle): string {
  return style.palette.dim(`↻ ${text}`);
}

/** The summary line, its leading word colored by how the run ended. */
export function summaryLine(options: { label: string; text: string; style: LineStyle }): string {
  const p = options.style.palette;
  const color = options.label === "done" ? p.green : options.label === "aborted" ? p.yellow : p.red;
  return `${p.bold(color(options.label))}${options.text.slice(options.label.length)}`;
}
