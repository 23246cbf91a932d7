/**
 * The spinner of the status line: its frames and the interval that advances them. The interval
 * only exists while something is running, and it never keeps the process alive.
 */

/** Frames of the status-line spinner, one per tick. */
export const SPINNER_FRAMES: readonly string[] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Milliseconds between two spinner frames. */
export const SPINNER_INTERVAL_MS = 80;

/** Starts a repeating timer; the handle is what `ClearIntervalFn` receives. */
export type SetIntervalFn = (callback: () => void, ms: number) => unknown;

/** Stops a timer started by a `SetIntervalFn`. */
export type ClearIntervalFn = (handle: unknown) => void;

/** A spinner that advances on its own while started. */
export interface Spinner {
  /** The frame to draw now. */
  frame(): string;
  /** Starts ticking; a no-op when already started. */
  start(): void;
  /** Stops ticking and releases the timer; a no-op when stopped. */
  stop(): void;
  /** True while a timer is alive. */
  running(): boolean;
}

/** What a spinner needs: the timer functions and what to do on each tick. */
export interface SpinnerOptions {
  setInterval: SetIntervalFn;
  clearInterval: ClearIntervalFn;
  /** Called after each frame advance, to redraw. */
  onTick: () => void;
  intervalMs?: number;
}

/**
 * Creates a stopped spinner.
 * Contract: `start` creates at most one timer and unrefs it when the handle supports `unref`;
 * `stop` clears it, so a stopped spinner holds no timer.
 */
export function createSpinner(options: SpinnerOptions): Spinner {
  let index = 0;
  let handle: unknown;
  let alive = false;
  return {
    frame: () => SPINNER_FRAMES[index % SPINNER_FRAMES.length]!,
    start() {
      if (alive) return;
      alive = true;
      handle = options.setInterval(() => {
        index = (index + 1) % SPINNER_FRAMES.length;
        options.onTick();
      }, options.intervalMs ?? SPINNER_INTERVAL_MS);
      unref(handle);
    },
    stop() {
      if (!alive) return;
      alive = false;
      options.clearInterval(handle);
      handle = undefined;
    },
    running: () => alive,
  };
}

/** The host's own timers, looked up at call time so test doubles of the globals apply. */
export const systemTimers: { setInterval: SetIntervalFn; clearInterval: ClearIntervalFn } = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
};

function unref(handle: unknown): void {
  if (typeof handle !== "object" || handle === null || !("unref" in handle)) return;
  const fn = (handle as { unref: unknown }).unref;
  if (typeof fn === "function") fn.call(handle);
}
