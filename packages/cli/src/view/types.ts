/**
 * The public shapes of the live view: its options and the handle `createLiveView` returns.
 */
import type { GatehouseEvent } from "@gatehouse/sdk";
import type { ClearIntervalFn, SetIntervalFn } from "./spinner.ts";

/** Where the view writes: a stream, optionally a terminal with a width. */
export type LiveViewOutput = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Options of `createLiveView`. */
export interface LiveViewOptions {
  /** The stream to render to, usually `process.stdout`. */
  out: LiveViewOutput;
  /** Colors in TTY mode; default on. Never used in plain mode, and off whenever `NO_COLOR` is set. */
  color?: boolean;
  /** Forces TTY mode on or off; default `out.isTTY`. */
  tty?: boolean;
  /** Line width; default `out.columns` (80 when unknown) in TTY mode, 200 in plain mode. */
  width?: number;
  /** The clock, in milliseconds; default `Date.now`. */
  now?: () => number;
  /** Starts the spinner's interval; default the global `setInterval`. */
  setInterval?: SetIntervalFn;
  /** Stops the spinner's interval; default the global `clearInterval`. */
  clearInterval?: ClearIntervalFn;
  /** Where `NO_COLOR` is read from; default `process.env`. */
  env?: { NO_COLOR?: string | undefined };
}

/** What `close` may be told about how the run ended. */
export interface LiveViewCloseSummary {
  /** The process exit code, shown when the run stopped before `agent_end`. */
  exitCode?: number;
}

/** A running live view. */
export interface LiveView {
  /** Renders one event; events after `close` are ignored. */
  onEvent(event: GatehouseEvent): void;
  /** Clears the status line, stops the spinner, and prints the summary if `agent_end` never came. */
  close(summary?: LiveViewCloseSummary): void;
  /** Adds a remark to the end of the run's summary line (e.g. that no path guard is loaded). */
  noteInSummary(note: string): void;
}
