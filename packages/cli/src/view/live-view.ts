/**
 * The live view of `gatehouse run`: a state machine over `GatehouseEvent`s that reads like a
 * conversation — the prompt, the assistant's text and thinking, one block per tool call (its call
 * line, then what came of it nested under it), warnings, and a closing summary that says how the
 * run ended and what was left unfinished. In a terminal the assistant's text streams as it
 * arrives and a live region at the bottom shows the model request and every running call with
 * its progress, redrawn in place.
 */
import type { AssistantMessage, GatehouseEvent, GatehouseEventOf, ToolOutcome } from "@gatehouse/sdk";
import { colorEnabled } from "../color-support.ts";
import { createPalette } from "./ansi.ts";
import { type AssistantStream, createAssistantStream } from "./assistant-stream.ts";
import { callBlock, skippedLine } from "./call-block.ts";
import { formatArgs } from "./format-args.ts";
import { describeAssistant } from "./format-assistant.ts";
import { describeExtensionError, describeReload } from "./format-host-events.ts";
import { type RunningCall, regionRows } from "./live-region.ts";
import { createRegionWriter } from "./region-writer.ts";
import { contentText, lastLine } from "./result-text.ts";
import { formatDuration, formatSummary, type RunCounts, summaryLabel } from "./run-summary.ts";
import { createSpinner, systemTimers } from "./spinner.ts";
import { type LineStyle, noteLine, toolLabel, warningLines } from "./styled-lines.ts";
import { addUsage } from "./token-usage.ts";
import type { LiveView, LiveViewOptions } from "./types.ts";
import { wrapWords } from "./word-wrap.ts";

/** Width of output that is not a terminal, or of a terminal that does not report one. */
const DEFAULT_COLUMNS = 80;
/** Rows the live region may take at most, whatever the terminal's height. */
const MAX_REGION_ROWS = 12;
/** Rows of the user's prompt echoed at most. */
const PROMPT_ROWS = 3;

/** What is printed together; a blank row separates one group from the next. */
type Group = "user" | "assistant" | "tools" | "summary";

const freshCounts = (): RunCounts => ({
  turns: 0,
  outcomes: new Map<ToolOutcome, number>(),
  unfinished: 0,
  skipped: 0,
});

/** What one event makes the view write: streamed text first, then whole rows. */
interface Output {
  inline?: string;
  lines: string[];
}

/**
 * Creates a live view writing to `options.out`.
 * Contract: terminal mode (`tty`, else `out.isTTY`) streams assistant text and thinking as their
 * deltas arrive (each block printed once: `message_end` prints only what was not streamed) and
 * redraws the live region while the model answers or tools run, driven by an unref'd interval that
 * exists only while one of those is in progress and never after `close`; plain mode writes whole
 * rows only, with no cursor movement, and the same rows a terminal is left with. Every row fits
 * the width (the terminal's columns minus one, else `width` or 80); text wraps at spaces.
 * Colours: `color`, else the environment's convention (`colorEnabled`).
 */
export function createLiveView(options: LiveViewOptions): LiveView {
  const tty = options.tty ?? options.out.isTTY === true;
  const colored = options.color ?? colorEnabled({ env: options.env ?? process.env, isTTY: tty });
  const palette = createPalette({ enabled: colored });
  const now = options.now ?? Date.now;
  const writer = createRegionWriter({ out: options.out, tty });
  const spinner = createSpinner({
    setInterval: options.setInterval ?? systemTimers.setInterval,
    clearInterval: options.clearInterval ?? systemTimers.clearInterval,
    onTick: () => render({ lines: [] }),
  });

  const running = new Map<string, RunningCall>();
  /** The calls of the last assistant message, for the ones an abort kept from starting. */
  let asked = new Map<string, { toolName: string; args: unknown }>();
  let modelStartedAt: number | undefined;
  let stream: AssistantStream | undefined;
  let counts = freshCounts();
  let unfinished: string[] = [];
  let startedAt: number | undefined;
  let summarized = false;
  let closed = false;
  let group: Group | undefined;
  const notes: string[] = [];

  const style = (): LineStyle => {
    const reported = options.out.columns;
    // A pseudo-terminal without a size reports 0 columns: treat it as unknown.
    const terminal = reported !== undefined && reported > 0 ? reported : DEFAULT_COLUMNS;
    // A terminal row is left one column short, so no row ever lands in the auto-wrap column.
    const columns = tty ? (options.width ?? terminal) - 1 : (options.width ?? DEFAULT_COLUMNS);
    return { palette, width: Math.max(20, columns) };
  };

  /** A blank row before the first row of a new group. */
  function enter(next: Group): string[] {
    const blank = group !== undefined && group !== next ? [""] : [];
    group = next;
    return blank;
  }

  function render(output: Output): void {
    if (closed) return;
    const busy = tty && (running.size > 0 || modelStartedAt !== undefined);
    if (busy) spinner.start();
    else spinner.stop();
    let region: string[] = [];
    if (busy) {
      const rows = (options.out as { rows?: number }).rows;
      const maxRows = Math.min(MAX_REGION_ROWS, rows !== undefined && rows > 2 ? rows - 2 : MAX_REGION_ROWS);
      const model =
        modelStartedAt === undefined ? undefined : { startedAt: modelStartedAt, detail: stream?.activity() };
      region = regionRows({
        frame: spinner.frame(),
        model,
        calls: [...running.values()],
        now: now(),
        style: style(),
        maxRows,
      });
    }
    writer.render({ ...output, region });
  }

  const describeCall = (toolName: string, args: unknown): string => {
    const arg = formatArgs({ toolName, args });
    return arg === "" ? toolLabel(toolName) : `${toolLabel(toolName)} ${arg}`;
  };

  function summary(finished: boolean, exitCode?: number): string[] {
    const s = style();
    const p = s.palette;
    for (const call of running.values()) unfinished.push(`${describeCall(call.toolName, call.args)} (still running)`);
    counts.unfinished = running.size;
    running.clear();
    modelStartedAt = undefined;
    stream = undefined;
    summarized = true;
    const label = summaryLabel({ counts, finished, exitCode });
    const text = formatSummary({ label, counts, elapsedMs: startedAt === undefined ? 0 : now() - startedAt });
    const colour = label === "done" ? p.green : label === "interrupted" || label === "aborted" ? p.yellow : p.red;
    const line = [text, ...notes].join(" · ");
    const rows = wrapWords(line, { width: s.width, rest: "  " });
    rows[0] = `${p.bold(colour(label))}${(rows[0] ?? "").slice(label.length)}`;
    const left =
      unfinished.length === 0
        ? []
        : wrapWords(`left unfinished: ${unfinished.join(" · ")}`, { width: s.width, first: "  ", rest: "    " }).map(
            (row) => p.yellow(row),
          );
    return [...enter("summary"), ...rows, ...left];
  }

  function userRows(text: string): string[] {
    const s = style();
    const rows = wrapWords(contentText([{ type: "text", text }]), {
      width: s.width,
      first: "› ",
      line: "  ",
      rest: "  ",
    });
    const kept = rows.length > PROMPT_ROWS ? [...rows.slice(0, PROMPT_ROWS - 1), `${rows[PROMPT_ROWS - 1]} …`] : rows;
    return kept.length === 0 ? [] : [...enter("user"), ...kept.map((row) => s.palette.cyan(row))];
  }

  /** The assistant's side: a request starts, streams, and ends with its message. */
  function messageOutput(event: GatehouseEventOf<"message_start" | "message_update" | "message_end">): Output {
    const message = event.message;
    if (message.role === "user") {
      if (event.type !== "message_end") return { lines: [] };
      const text = typeof message.content === "string" ? message.content : contentText(message.content as never);
      return { lines: userRows(text) };
    }
    if (message.role === "toolResult") {
      const skipped = (message.details as { skipped?: unknown } | undefined)?.skipped === true;
      if (event.type !== "message_end" || !skipped) return { lines: [] };
      const call = asked.get(message.toolCallId) ?? { toolName: message.toolName, args: {} };
      counts.skipped = (counts.skipped ?? 0) + 1;
      unfinished.push(`${describeCall(call.toolName, call.args)} (never started)`);
      return { lines: [...enter("tools"), skippedLine({ ...call, style: style() })] };
    }
    if (event.type === "message_start") {
      modelStartedAt ??= now();
      stream = tty
        ? createAssistantStream({
            palette,
            width: style().width,
            beginBlock: () =>
              enter("assistant")
                .map((r) => `${r}\n`)
                .join(""),
          })
        : undefined;
      return { lines: [] };
    }
    if (event.type === "message_update") return { inline: stream?.update(event, writer.rowOpen()) ?? "", lines: [] };
    return assistantEnd(message as AssistantMessage);
  }

  function assistantEnd(message: AssistantMessage): Output {
    const inline = stream?.finish(writer.rowOpen()) ?? "";
    const skip = stream?.written;
    stream = undefined;
    modelStartedAt = undefined;
    counts.lastStopReason = message.stopReason;
    counts.usage = addUsage(counts.usage, message.usage);
    asked = new Map();
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (block.type === "toolCall") asked.set(block.id, { toolName: block.name, args: block.arguments });
    }
    if (message.stopReason === "aborted" && counts.interrupted) unfinished.push("the model's answer (cut off)");
    const rows = describeAssistant(message, { skip, style: style(), interrupted: counts.interrupted === true });
    return { inline, lines: rows.length === 0 ? [] : [...enter("assistant"), ...rows] };
  }

  function toolEnd(event: GatehouseEventOf<"tool_execution_end">): string[] {
    const call = running.get(event.toolCallId);
    running.delete(event.toolCallId);
    counts.outcomes.set(event.outcome, (counts.outcomes.get(event.outcome) ?? 0) + 1);
    if (event.outcome === "aborted") {
      const after = call === undefined ? "" : ` after ${formatDuration(now() - call.startedAt)}`;
      unfinished.push(`${describeCall(event.toolName, event.args)} (stopped${after})`);
    }
    return [...enter("tools"), ...callBlock(event, style())];
  }

  function linesFor(event: GatehouseEvent): string[] {
    switch (event.type) {
      case "agent_start":
        counts = freshCounts();
        unfinished = [];
        running.clear();
        modelStartedAt = undefined;
        stream = undefined;
        startedAt = now();
        summarized = false;
        return [];
      case "turn_start":
        counts.turns += 1;
        // The model is asked next: the request is in flight from here.
        modelStartedAt = now();
        return [];
      case "tool_execution_start":
        running.set(event.toolCallId, { toolName: event.toolName, args: event.args, startedAt: now() });
        return [];
      case "tool_execution_update": {
        const call = running.get(event.toolCallId);
        if (call !== undefined) call.progress = lastLine(contentText(event.partialResult?.content));
        return [];
      }
      case "tool_execution_end":
        return toolEnd(event);
      case "extension_error":
        return warningLines(describeExtensionError(event), style());
      case "extensions_reloaded": {
        const text = describeReload(event);
        return text === undefined ? [] : [noteLine(text, style())];
      }
      case "agent_end":
        return summary(true);
      default:
        return [];
    }
  }

  return {
    onEvent(event) {
      if (closed) return;
      if (event.type === "message_start" || event.type === "message_update" || event.type === "message_end") {
        render(messageOutput(event));
      } else render({ lines: linesFor(event) });
    },
    noteInSummary(text) {
      notes.push(text);
    },
    interrupt() {
      if (closed || counts.interrupted) return;
      counts.interrupted = true;
      const what =
        running.size > 0
          ? `stopping ${running.size === 1 ? "the running call" : `${running.size} running calls`}`
          : modelStartedAt !== undefined
            ? "stopping the model's answer"
            : "stopping";
      const s = style();
      const rows = wrapWords(`interrupted: ${what} (Ctrl-C again quits at once)`, {
        width: s.width,
        first: "⏹ ",
        rest: "  ",
      });
      render({ lines: rows.map((row) => s.palette.yellow(row)) });
    },
    close(closeSummary) {
      if (closed) return;
      const lines = startedAt !== undefined && !summarized ? summary(false, closeSummary?.exitCode) : [];
      running.clear();
      modelStartedAt = undefined;
      stream = undefined;
      render({ lines });
      spinner.stop();
      closed = true;
    },
  };
}
