/**
 * The public shapes of the live view: its options and the handle `createLiveView` returns.
 */
import type { GatehouseEvent } from "@gatehouse/sdk";
import type { ColorEnv } from "../color-support.ts";
import type { ClearIntervalFn, SetIntervalFn } from "./spinner.ts";

/** Where the view writes: a stream, optionally a terminal with a width. */
export type LiveViewOutput = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Options of `createLiveView`. */
export interface LiveViewOptions {
  /** The stream to render to, usually `process.stdout`. */
  out: LiveViewOutput;
  /** Colours on or off; default: the environment's convention for this output (`colorEnabled`). */
  color?: boolean;
  /** Forces TTY mode on or off; default `out.isTTY`. */
  tty?: boolean;
  /** Columns of the output; default `out.columns` in a terminal, else 80. */
  width?: number;
  /** The clock, in milliseconds; default `Date.now`. */
  now?: () => number;
  /** Starts the spinner's interval; default the global `setInterval`. */
  setInterval?: SetIntervalFn;
  /** Stops the spinner's interval; default the global `clearInterval`. */
  clearInterval?: ClearIntervalFn;
  /** Where the colour conventions (`FORCE_COLOR`, `NO_COLOR`, `TERM`) are read from; default `process.env`. */
  env?: ColorEnv;
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
  /** Ctrl-C: says so at once, and the summary then reads "interrupted" and lists what was left unfinished. */
  interrupt(): void;
}
