/**
 * An injectable interval for view tests: records every timer, fires them on demand, and says
 * which are still alive, so a test can prove the spinner stops and nothing is left behind.
 */

/** One timer handed out by the fake; `unref` records that the view unref'd it. */
export interface FakeTimer {
  callback: () => void;
  ms: number;
  cleared: boolean;
  unrefed: boolean;
  unref(): FakeTimer;
}

/** The fake's controls plus the two functions a view is given. */
export interface FakeTicker {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  timers: FakeTimer[];
  /** Timers created and not cleared. */
  alive(): FakeTimer[];
  /** Fires every live timer once. */
  tick(): void;
}

/** Creates a fake interval source. */
export function createFakeTicker(): FakeTicker {
  const timers: FakeTimer[] = [];
  return {
    timers,
    setInterval(callback, ms) {
      const timer: FakeTimer = {
        callback,
        ms,
        cleared: false,
        unrefed: false,
        unref() {
          timer.unrefed = true;
          return timer;
        },
      };
      timers.push(timer);
      return timer;
    },
    clearInterval(handle) {
      const timer = timers.find((t) => t === handle);
      if (!timer) throw new Error("clearInterval with a handle the fake never gave out");
      timer.cleared = true;
    },
    alive: () => timers.filter((t) => !t.cleared),
    tick() {
      for (const timer of timers.filter((t) => !t.cleared)) timer.callback();
    },
  };
}

/** A clock the test moves by hand. */
export function createClock(start = 1_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}
