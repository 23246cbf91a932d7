import { keepShape } from "./keep-shape.ts";

/** Whether a signal has aborted, as a plain field (see `abortFlag`). */
export interface AbortFlag {
  readonly aborted: boolean;
}

/** The flag of one signal: set by the signal's own abort event, in the dispatch that aborts it. */
class SignalFlag implements AbortFlag {
  aborted = false;

  constructor(signal: AbortSignal) {
    if (signal.aborted) this.aborted = true;
    else signal.addEventListener("abort", () => this.#set(), { once: true });
  }

  #set(): void {
    this.aborted = true;
  }
}

// Flags outlive runs: their layout (and the code built on it) must too.
keepShape(new SignalFlag(new AbortController().signal));

const flags = new WeakMap<AbortSignal, AbortFlag>();

/**
 * The abort state of `signal` as a field of one fixed shape, for code that asks on every call or
 * event.
 * Why: Node gives every AbortSignal a hidden class of its own (it sets the prototype after
 * construction), so optimised code that reads `signal.aborted` is thrown away by the next run's
 * signal, and the loop's hottest functions would be optimised anew on every run.
 * Contract: `aborted` is true from the moment the signal aborts as seen by any code that runs after
 * `abort()` (the flag's listener is the first one when the flag is taken before others listen, as
 * the loop does at the start of a run); one flag per signal. A signal that cannot be listened to is
 * read directly.
 */
export function abortFlag(signal: AbortSignal): AbortFlag {
  return flags.get(signal) ?? newFlag(signal);
}

/** Kept out of `abortFlag`: it reads the signal itself, whose hidden class is new every time. */
function newFlag(signal: AbortSignal): AbortFlag {
  const flag = typeof signal.addEventListener === "function" ? new SignalFlag(signal) : signal;
  flags.set(signal, flag);
  return flag;
}
