/**
 * Exit codes of the `gatehouse` CLI. Tool failures are data for the model, not process failures:
 * a run whose tools failed but whose model finished normally exits 0.
 */
export const ExitCode = {
  /** The run finished: the model stopped, or the last batch asked to terminate. */
  ok: 0,
  /** The run ended in a model error, or the host failed unexpectedly. */
  runFailed: 1,
  /** Bad usage or bad input: unknown flag, unreadable or malformed script, missing --cwd, a required guard that cannot run, an unusable Gatehouse home. */
  usage: 2,
  /** Interrupted (Ctrl-C) or aborted. */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + 15): aborted like Ctrl-C, session and audit closed. */
  terminated: 143,
  /** Stopped by SIGHUP (128 + 1), the terminal closed: aborted like Ctrl-C. */
  hungUp: 129,
} as const;

/** One of the documented exit codes. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
