import type { ShellExit } from "../tools/run-shell.ts";

/** How bwrap begins each of its own messages. */
const BWRAP_PREFIX = "bwrap: ";

/** Whether `text` may still be nothing but bwrap's messages: whole lines starting "bwrap: ", then the start of one. */
function onlyBwrapLines(text: string): boolean {
  const lines = text.split("\n");
  const last = lines.pop() ?? "";
  return (
    lines.every((line) => line.startsWith(BWRAP_PREFIX)) &&
    (last.startsWith(BWRAP_PREFIX) || BWRAP_PREFIX.startsWith(last))
  );
}

/** The records of bwrap's `--json-status-fd` report (one JSON object a line), or undefined when it is not that. */
function statusRecords(text: string): Record<string, unknown>[] | undefined {
  const records: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
      records.push(record as Record<string, unknown>);
    } catch {
      return undefined;
    }
  }
  return records;
}

/** Where a watched run's output goes once it is known to be the command's. */
export interface WatchedOutput {
  stdout: (chunk: Buffer) => void;
  stderr: (chunk: Buffer) => void;
}

/**
 * One bwrap run seen from outside: tells a run whose command never started (bwrap failed while
 * setting up the sandbox, e.g. a path it was to mount over vanished) from one whose command ran.
 * bwrap reports `exit-code` on its status descriptor only when it got as far as starting the
 * command (setup finished, exec succeeded); the command cannot write there (bwrap does not pass
 * the descriptor on) and cannot keep bwrap from writing it.
 * Contract: `settle` names a setup failure only when all of these hold, so a command that started
 * is never taken for one that did not: the status report ended and holds no `exit-code`; bwrap
 * exited with a non-zero code of its own (no signal, no timeout, no abort, no spawn error); and the
 * run wrote nothing to stdout and nothing but "bwrap: " lines to stderr. Those lines are held back
 * until the run is known to be the command's (any other output, or `settle`), so a failed
 * setup's message never reaches the caller's output; everything else passes through in order.
 */
export class SetupWatch {
  readonly #out: WatchedOutput;
  #status = "";
  #statusEnded = false;
  readonly #held: Buffer[] = [];
  #heldText = "";
  #released = false;

  constructor(out: WatchedOutput) {
    this.#out = out;
  }

  /** The receiver of bwrap's status descriptor (`runShell`'s `status`). */
  readonly status = {
    onData: (chunk: Buffer): void => {
      this.#status += chunk.toString("utf8");
    },
    onEnd: (): void => {
      this.#statusEnded = true;
    },
  };

  /** Receives the run's stdout. */
  readonly stdout = (chunk: Buffer): void => {
    this.#release();
    this.#out.stdout(chunk);
  };

  /** Receives the run's stderr. */
  readonly stderr = (chunk: Buffer): void => {
    if (this.#released) {
      this.#out.stderr(chunk);
      return;
    }
    this.#held.push(chunk);
    this.#heldText += chunk.toString("latin1");
    if (!onlyBwrapLines(this.#heldText)) this.#release();
  };

  /**
   * Once the run is over: bwrap's message when the command never started (the held output is
   * dropped), or undefined when it started or may have (the held output is passed on).
   */
  settle(exit: ShellExit): string | undefined {
    const failure = this.#setupFailure(exit);
    if (failure === undefined) this.#release();
    return failure;
  }

  #setupFailure(exit: ShellExit): string | undefined {
    if (this.#released || !this.#statusEnded) return undefined;
    if (exit.spawnError !== undefined || exit.timedOut || exit.aborted || exit.exitSignal !== null) return undefined;
    if (exit.exitCode === null || exit.exitCode === 0) return undefined;
    const records = statusRecords(this.#status);
    if (records === undefined || records.some((record) => "exit-code" in record)) return undefined;
    const said = Buffer.concat(this.#held).toString("utf8").trim();
    return said === "" ? `bwrap exited with code ${exit.exitCode} before starting the command` : said;
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const chunk of this.#held.splice(0)) this.#out.stderr(chunk);
    this.#heldText = "";
  }
}
