import { ExitCode } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";

/** What the running command says it is waiting for, when asked (see `notePending`). */
let describePending: (() => string | undefined) | undefined;

/**
 * Lets the running command say what it waits for (`run`: the tool calls in flight), for the
 * message `watchUnfinished` prints. Returns the function that withdraws it.
 */
export function notePending(describe: () => string | undefined): () => void {
  describePending = describe;
  return () => {
    if (describePending === describe) describePending = undefined;
  };
}

/**
 * Guards one command against ending silently: when the event loop drains while the command's
 * promise is still pending (a tool's execute, an extension's handler or import that returns a
 * promise that never settles, with no timer or socket left), Node would exit with code 0 and no
 * word — a run that did not finish would read as a success. Says so on stderr, naming what was
 * pending, and sets exit code 1. Returns the function that stops watching (call it when the
 * command settles).
 */
export function watchUnfinished(io: CliIo, command: string): () => void {
  const onBeforeExit = () => {
    process.off("beforeExit", onBeforeExit);
    const pending = describePending?.();
    const what = pending ? `: ${pending} never finished` : "";
    io.stderr.write(
      `gatehouse: ${command} stopped before it finished${what}; it waited on a promise that can never settle (a tool or extension that returned one), so nothing was left to run\n`,
    );
    process.exitCode = ExitCode.runFailed;
  };
  process.on("beforeExit", onBeforeExit);
  return () => process.off("beforeExit", onBeforeExit);
}
