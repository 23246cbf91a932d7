/**
 * The live view of `gatehouse run`: a state machine over `GatehouseEvent`s that prints one line
 * per tool start and end, the assistant's text, warnings and a closing summary. In a terminal it
 * streams the assistant's text as it arrives and keeps a spinner status line for the model
 * request in flight (with the tool call it is streaming) and the calls still running.
 */
import type { GatehouseEvent, GatehouseEventOf, ToolOutcome } from "@gatehouse/sdk";
import { createPalette, noColorRequested } from "./ansi.ts";
import { type AssistantStream, createAssistantStream } from "./assistant-stream.ts";
import { describeAssistant } from "./format-assistant.ts";
import { describeExtensionError, describeReload } from "./format-host-events.ts";
import { contentText, lastLine } from "./format-result.ts";
import { createLineWriter } from "./line-writer.ts";
import { formatSummary, type RunCounts, summaryLabel } from "./run-summary.ts";
import { createSpinner, systemTimers } from "./spinner.ts";
import { formatStatusLine, type RunningCall } from "./status-line.ts";
import {
  assistantLine,
  endLine,
  type LineStyle,
  noteLine,
  startLine,
  summaryLine,
  warningLine,
} from "./styled-lines.ts";
import { addUsage } from "./token-usage.ts";
import type { LiveView, LiveViewOptions } from "./types.ts";

/** Width of plain (non-terminal) output when none is given. */
const PLAIN_WIDTH = 200;

/** Width of a terminal that does not report one. */
const DEFAULT_COLUMNS = 80;

const freshCounts = (): RunCounts => ({ turns: 0, outcomes: new Map<ToolOutcome, number>(), unfinished: 0 });

/** What one event makes the view write: streamed text first, then whole lines. */
interface Output {
  inline?: string;
  lines: string[];
}

/**
 * Creates a live view writing to `options.out`.
 * Contract: TTY mode (`tty`, else `out.isTTY`) streams assistant text and thinking as their deltas
 * arrive (each block printed once: `message_end` prints only what was not streamed) and redraws
 * one status line in place while the model answers (from `turn_start`, or the assistant's
 * `message_start`, to its `message_end`) or tools run, driven by an unref'd interval that exists
 * only while one of those is in progress and never after `close`; plain mode writes whole lines
 * only, the assistant's at `message_end`, with no escape codes. The view reads nothing but its
 * events, its options and `NO_COLOR` (from `options.env`, default `process.env`).
 */
export function createLiveView(options: LiveViewOptions): LiveView {
  const tty = options.tty ?? options.out.isTTY === true;
  const colored = tty && options.color !== false && !noColorRequested(options.env ?? process.env);
  const palette = createPalette({ enabled: colored });
  const now = options.now ?? Date.now;
  const writer = createLineWriter({ out: options.out, tty });
  const spinner = createSpinner({
    setInterval: options.setInterval ?? systemTimers.setInterval,
    clearInterval: options.clearInterval ?? systemTimers.clearInterval,
    onTick: () => render({ lines: [] }),
  });

  const running = new Map<string, RunningCall>();
  /** When the model request in flight started; undefined when none is. */
  let modelStartedAt: number | undefined;
  let stream: AssistantStream | undefined;
  let counts = freshCounts();
  let startedAt: number | undefined;
  let summarized = false;
  let closed = false;
  let progressSeq = 0;
  let note: string | undefined;

  const style = (): LineStyle => {
    const reported = options.out.columns;
    // A pseudo-terminal without a size reports 0 columns: treat it as unknown.
    const terminal = reported !== undefined && reported > 0 ? reported : DEFAULT_COLUMNS;
    const columns = options.width ?? (tty ? terminal : PLAIN_WIDTH);
    // A terminal row is left one column short, so no line ever lands in the auto-wrap column.
    return { palette, width: Math.max(10, tty ? columns - 1 : columns) };
  };

  function render(output: Output): void {
    if (closed) return;
    const busy = tty && (running.size > 0 || modelStartedAt !== undefined);
    if (busy) spinner.start();
    else spinner.stop();
    const model = modelStartedAt === undefined ? undefined : { startedAt: modelStartedAt, detail: stream?.activity() };
    const status = busy
      ? formatStatusLine({ frame: spinner.frame(), model, calls: running.values(), now: now(), ...style() })
      : undefined;
    writer.render({ ...output, status });
  }

  function summary(finished: boolean, exitCode?: number): string {
    counts.unfinished = running.size;
    running.clear();
    modelStartedAt = undefined;
    stream = undefined;
    summarized = true;
    const label = summaryLabel({ counts, finished, exitCode });
    const elapsedMs = startedAt === undefined ? 0 : now() - startedAt;
    const text = formatSummary({ label, counts, elapsedMs });
    return summaryLine({ label, text: note === undefined ? text : `${text} · ${note}`, style: style() });
  }

  /** The assistant's side: a request starts, streams, and ends with its message. */
  function assistantOutput(event: GatehouseEventOf<"message_start" | "message_update" | "message_end">): Output {
    if (event.message.role !== "assistant") return { lines: [] };
    if (event.type === "message_start") {
      modelStartedAt ??= now();
      stream = tty ? createAssistantStream({ palette }) : undefined;
      return { lines: [] };
    }
    if (event.type === "message_update") return { inline: stream?.update(event, writer.rowOpen()) ?? "", lines: [] };
    const inline = stream?.finish(writer.rowOpen()) ?? "";
    const skip = stream?.written;
    stream = undefined;
    modelStartedAt = undefined;
    counts.lastStopReason = event.message.stopReason;
    counts.usage = addUsage(counts.usage, event.message.usage);
    const s = style();
    return { inline, lines: describeAssistant(event.message, { skip }).map((line) => assistantLine(line, s)) };
  }

  function linesFor(event: GatehouseEvent): string[] {
    const s = style();
    switch (event.type) {
      case "agent_start":
        counts = freshCounts();
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
        running.set(event.toolCallId, { toolName: event.toolName, startedAt: now(), progressSeq: 0 });
        return [startLine(event, s)];
      case "tool_execution_update": {
        const call = running.get(event.toolCallId);
        if (call !== undefined) {
          call.progress = lastLine(contentText(event.partialResult?.content));
          call.progressSeq = ++progressSeq;
        }
        return [];
      }
      case "tool_execution_end":
        running.delete(event.toolCallId);
        counts.outcomes.set(event.outcome, (counts.outcomes.get(event.outcome) ?? 0) + 1);
        return [endLine(event, s)];
      case "extension_error":
        return [warningLine(describeExtensionError(event), s)];
      case "extensions_reloaded": {
        const text = describeReload(event);
        return text === undefined ? [] : [noteLine(text, s)];
      }
      case "agent_end":
        return [summary(true)];
      default:
        return [];
    }
  }

  return {
    onEvent(event) {
      if (closed) return;
      if (event.type === "message_start" || event.type === "message_update" || event.type === "message_end") {
        render(assistantOutput(event));
      } else render({ lines: linesFor(event) });
    },
    noteInSummary(text) {
      note = text;
    },
    close(closeSummary) {
      if (closed) return;
      const lines = startedAt !== undefined && !summarized ? [summary(false, closeSummary?.exitCode)] : [];
      running.clear();
      modelStartedAt = undefined;
      stream = undefined;
      render({ lines });
      spinner.stop();
      closed = true;
    },
  };
}
