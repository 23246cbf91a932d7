/**
 * The live view of `gatehouse run`: a state machine over `GatehouseEvent`s that prints one line
 * per tool start and end, the assistant's text, warnings and a closing summary, and in a terminal
 * keeps a spinner status line for the calls still running.
 */
import type { GatehouseEvent, ToolOutcome } from "@gatehouse/sdk";
import { createPalette, noColorRequested } from "./ansi.ts";
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
import type { LiveView, LiveViewOptions } from "./types.ts";

/** Width of plain (non-terminal) output when none is given. */
const PLAIN_WIDTH = 200;

/** Width of a terminal that does not report one. */
const DEFAULT_COLUMNS = 80;

const freshCounts = (): RunCounts => ({ turns: 0, outcomes: new Map<ToolOutcome, number>(), unfinished: 0 });

/**
 * Creates a live view writing to `options.out`.
 * Contract: TTY mode (`tty`, else `out.isTTY`) redraws one status line in place while tools run,
 * driven by an unref'd interval that exists only while a call is running and never after `close`;
 * plain mode writes whole lines only, with no escape codes. The view reads nothing but its events,
 * its options and `NO_COLOR` (from `options.env`, default `process.env`).
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
    onTick: () => render([]),
  });

  const running = new Map<string, RunningCall>();
  let counts = freshCounts();
  let startedAt: number | undefined;
  let summarized = false;
  let closed = false;
  let progressSeq = 0;

  const style = (): LineStyle => {
    const reported = options.out.columns;
    // A pseudo-terminal without a size reports 0 columns: treat it as unknown.
    const terminal = reported !== undefined && reported > 0 ? reported : DEFAULT_COLUMNS;
    const columns = options.width ?? (tty ? terminal : PLAIN_WIDTH);
    // A terminal row is left one column short, so no line ever lands in the auto-wrap column.
    return { palette, width: Math.max(10, tty ? columns - 1 : columns) };
  };

  function render(lines: string[]): void {
    if (closed) return;
    if (tty && running.size > 0) spinner.start();
    else spinner.stop();
    const s = style();
    const status =
      tty && running.size > 0
        ? formatStatusLine({ frame: spinner.frame(), calls: running.values(), now: now(), ...s })
        : undefined;
    writer.render({ lines, status });
  }

  function summary(finished: boolean, exitCode?: number): string {
    counts.unfinished = running.size;
    running.clear();
    summarized = true;
    const label = summaryLabel({ counts, finished, exitCode });
    const elapsedMs = startedAt === undefined ? 0 : now() - startedAt;
    return summaryLine({ label, text: formatSummary({ label, counts, elapsedMs }), style: style() });
  }

  function linesFor(event: GatehouseEvent): string[] {
    const s = style();
    switch (event.type) {
      case "agent_start":
        counts = freshCounts();
        running.clear();
        startedAt = now();
        summarized = false;
        return [];
      case "turn_start":
        counts.turns += 1;
        return [];
      case "message_end":
        if (event.message.role !== "assistant") return [];
        counts.lastStopReason = event.message.stopReason;
        return describeAssistant(event.message).map((line) => assistantLine(line, s));
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
      render(linesFor(event));
    },
    close(closeSummary) {
      if (closed) return;
      const lines = startedAt !== undefined && !summarized ? [summary(false, closeSummary?.exitCode)] : [];
      running.clear();
      render(lines);
      spinner.stop();
      closed = true;
    },
  };
}
