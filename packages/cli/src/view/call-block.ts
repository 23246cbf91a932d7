/**
 * The block a finished call leaves on screen: its call line — mark, tool, the meaningful argument,
 * how it ended — and under it what came of it: a diff for a changed file, the first and last rows
 * of an output with "+N lines", or the guard and reason of a refusal.
 */
import type { ToolExecutionEndEvent, ToolOutcome } from "@gatehouse/sdk";
import type { Style } from "./ansi.ts";
import { diffOf, diffRows, diffStat } from "./diff-rows.ts";
import { formatArgs } from "./format-args.ts";
import { contentText, excerpt, firstLine, textLines } from "./result-text.ts";
import { type LineStyle, nested, nestedText, toolLabel } from "./styled-lines.ts";
import { displayWidth, truncateToWidth } from "./text-width.ts";

/** Rows of output shown under a call before "+N lines". */
const OUTPUT_ROWS = 5;
/** Rows of a diff shown under a call. */
const DIFF_ROWS = 12;
/** Rows of a refusal or error message. */
const MESSAGE_ROWS = 4;

/** How a call ended, as its mark and colour show it. */
type Tone = "ok" | "error" | "blocked" | "stopped";

const MARKS: Record<Tone, string> = { ok: "✓", error: "✗", blocked: "⊘", stopped: "✗" };

function toneOf(outcome: ToolOutcome): Tone {
  if (outcome === "executed") return "ok";
  if (outcome === "blocked") return "blocked";
  return outcome === "aborted" ? "stopped" : "error";
}

function colour(style: LineStyle, tone: Tone): Style {
  const p = style.palette;
  return tone === "ok" ? p.green : tone === "error" ? p.red : p.yellow;
}

/**
 * A call line: `✓ write playground/x.txt · +3 −1`. The argument is cut so the ending stays
 * visible; the whole row fits `style.width`.
 */
export function callLine(options: {
  mark: string;
  tone: Style;
  toolName: string;
  args: unknown;
  suffix: string;
  style: LineStyle;
}): string {
  const { style } = options;
  const p = style.palette;
  const arg = formatArgs({ toolName: options.toolName, args: options.args });
  const suffix = options.suffix === "" ? "" : ` ${p.dim("·")} ${options.suffix}`;
  const name = toolLabel(options.toolName);
  const room = style.width - displayWidth(`${options.mark} ${name}`) - displayWidth(suffix);
  const shown = arg === "" || room < 2 ? "" : ` ${truncateToWidth(arg, room - 1)}`;
  return truncateToWidth(`${options.tone(options.mark)} ${p.bold(name)}${shown}${suffix}`, style.width);
}

/** The details of a read result: which lines it returned. */
function readSuffix(details: unknown): string {
  const d = details as { lines?: unknown; startLine?: unknown; endLine?: unknown } | undefined;
  if (typeof d?.lines !== "number") return "";
  const { startLine, endLine, lines } = d as { lines: number; startLine?: number; endLine?: number };
  const whole = startLine === undefined || endLine === undefined || (startLine <= 1 && endLine >= lines);
  if (whole) return `${lines} ${lines === 1 ? "line" : "lines"}`;
  return `lines ${startLine}–${endLine} of ${lines}`;
}

/** True for a `write` result that created its file. */
function createdFile(event: ToolExecutionEndEvent): boolean {
  return event.toolName === "write" && (event.result?.details as { created?: unknown } | undefined)?.created === true;
}

/** `new file, 3 lines`, from the content the call wrote. */
function newFileSuffix(args: unknown): string {
  const content = (args as { content?: unknown } | undefined)?.content;
  if (typeof content !== "string") return "new file";
  const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
  return `new file, ${lines} ${lines === 1 ? "line" : "lines"}`;
}

/** The ending of an executed call's line, from what its result says. */
function executedSuffix(event: ToolExecutionEndEvent): string {
  const details = event.result?.details;
  const diff = diffOf(details);
  if (diff) return diffStat(diff);
  if (createdFile(event)) return newFileSuffix(event.args);
  if (event.toolName === "read") return readSuffix(details);
  return "";
}

function outcomeSuffix(event: ToolExecutionEndEvent, tone: Style): string {
  const by = event.blockedBy === undefined ? "" : firstLine(event.blockedBy);
  switch (event.outcome) {
    case "executed":
      return executedSuffix(event);
    case "blocked":
      return tone(by === "" ? "blocked" : `blocked by ${by}`);
    case "invalid":
      return tone(by === "" ? "invalid arguments" : `invalid after ${by}`);
    case "unknown":
      return tone("unknown tool");
    default:
      return tone(firstLine(String(event.outcome)));
  }
}

/** Rows of output under a call: first and last rows, "… +N lines" between. */
function outputRows(lines: readonly string[], style: LineStyle, last: Style): string[] {
  const p = style.palette;
  const { head, hidden, tail } = excerpt(lines, OUTPUT_ROWS);
  const rows = [...head, ...(hidden > 0 ? [`… +${hidden} lines`] : []), ...tail];
  return rows.map((row, i) => (i === rows.length - 1 ? last(row) : p.dim(row)));
}

/**
 * The rows of one finished call.
 * Contract: the first row is the call line; nested rows follow: a refusal or invalid call shows
 * its reason wrapped (at most 4 rows), an executed call with `details.diff` shows the diff (at most
 * 12 rows), a read or a new file only its line count, other outputs their first and last rows
 * with the count of those left out; a one-line error is wrapped, a longer one's last row coloured. Every row fits `style.width`; no
 * escape sequence or secret shape from the result reaches the terminal.
 */
export function callBlock(event: ToolExecutionEndEvent, style: LineStyle): string[] {
  const tone = toneOf(event.outcome);
  const c = colour(style, tone);
  const head = callLine({
    mark: MARKS[tone],
    tone: c,
    toolName: event.toolName,
    args: event.args,
    suffix: outcomeSuffix(event, c),
    style,
  });
  const text = contentText(event.result?.content);
  if (event.outcome === "blocked" || event.outcome === "invalid" || event.outcome === "unknown") {
    const reason = event.reason === undefined ? text : contentText([{ type: "text", text: event.reason }]);
    const message = textLines(reason).join(" ");
    return message === "" ? [head] : [head, ...nestedText(message, style, { max: MESSAGE_ROWS, tone: c })];
  }
  if (event.outcome === "executed") {
    const diff = diffOf(event.result?.details);
    if (diff) return [head, ...nested(diffRows(diff, { palette: style.palette, max: DIFF_ROWS }), style)];
    if (event.toolName === "read" || createdFile(event)) return [head];
  }
  const lines = textLines(text);
  if (lines.length === 0) return [head];
  // A one-line error (a missing file, a timeout) is a message: wrapped whole, not cut.
  if (tone !== "ok" && lines.length === 1)
    return [head, ...nestedText(lines[0] as string, style, { max: MESSAGE_ROWS, tone: c })];
  return [head, ...nested(outputRows(lines, style, tone === "ok" ? style.palette.dim : c), style)];
}

/** The row of a call the run never started (Ctrl-C came first): `✗ write b.txt · never started`. */
export function skippedLine(options: { toolName: string; args: unknown; style: LineStyle }): string {
  const c = options.style.palette.yellow;
  return callLine({ ...options, mark: "✗", tone: c, suffix: c("never started") });
}
