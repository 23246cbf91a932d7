/**
 * The signals that stop `gatehouse run` the way Ctrl-C does. A CI timeout, `timeout`, `docker stop`
 * or a closed terminal sends SIGTERM or SIGHUP, not SIGINT: left to Node's default they killed the
 * process mid-batch, so calls that had already run (a file written) never reached the audit log or
 * the session. Each one now aborts the run, which closes the session and the audit; the exit code
 * is the shell's 128 + the signal's number.
 */
import { ExitCode, type ExitCodeValue } from "./exit-codes.ts";

/**
 * How long a run stopped by SIGTERM or SIGHUP may take to wind down before the process quits as
 * if signalled twice: nobody is there to press Ctrl-C again, and a tool that ignores its abort
 * signal must not keep a stopped run alive (docker stop kills after 10 s).
 */
const GRACE_MS = 5_000;

/** Each signal that stops a run, with the exit code it ends with. */
const STOP_SIGNALS = {
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
  SIGHUP: ExitCode.hungUp,
} as const satisfies Record<string, ExitCodeValue>;

/** What a run does when it is asked to stop. */
export interface StopHandlers {
  /** The first signal: abort the run (it then ends on its own, closing session and audit). */
  onFirst(): void;
  /** A second signal: quit at once with `code`. */
  onSecond(code: ExitCodeValue): void;
}

/** The installed handlers. */
export interface StopSignals {
  /** The exit code of the first signal received, if any. */
  readonly received: ExitCodeValue | undefined;
  /** Removes the handlers. */
  dispose(): void;
}

/**
 * Installs handlers for SIGINT, SIGTERM and SIGHUP.
 * Contract: the first signal of any of them calls `onFirst` once; any later one calls `onSecond`
 * with the first signal's code, and so does the end of the grace period after a first SIGTERM or
 * SIGHUP (the timer never keeps the process alive); `dispose` restores Node's defaults.
 */
export function onStopSignals(handlers: StopHandlers, graceMs = GRACE_MS): StopSignals {
  let received: ExitCodeValue | undefined;
  let grace: NodeJS.Timeout | undefined;
  const listeners = Object.entries(STOP_SIGNALS).map(([signal, code]) => {
    const listener = () => {
      if (received !== undefined) return handlers.onSecond(received);
      received = code;
      handlers.onFirst();
      if (signal === "SIGINT") return; // a person is there: a second Ctrl-C quits at once
      grace = setTimeout(() => handlers.onSecond(code), graceMs);
      grace.unref();
    };
    process.on(signal, listener);
    return { signal, listener };
  });
  return {
    get received() {
      return received;
    },
    dispose() {
      clearTimeout(grace);
      for (const { signal, listener } of listeners) process.off(signal, listener);
    },
  };
}
