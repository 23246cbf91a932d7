import { writeSync } from "node:fs";

/** Where a command writes; injectable so commands can be tested in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Where a command asks the user something (the --resume picker); absent in tests. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The directory the user ran the command from. */
  cwd: string;
  /**
   * Registers what to do when the reader of stdout or stderr went away (`gatehouse ... | head -1`):
   * a run stops its work cleanly instead of being cut off. Returns the function that unregisters it.
   */
  onOutputClosed?: (stop: () => void) => () => void;
  /** True once stdout or stderr was closed by its reader: the command then exits 0. */
  outputClosed?: () => boolean;
  /** True once writing stdout or stderr failed otherwise (a full disk: ENOSPC): the command then exits 1. */
  outputFailed?: () => boolean;
}

/**
 * A reader that closed the pipe early (`gatehouse ... | head -1`) has all it wants: end quietly,
 * with exit 0 and no stack trace. Any other write error (`> /dev/full`: ENOSPC, EIO) is said once
 * on stderr (`gatehouse: cannot write to stdout: ENOSPC`) and ends with exit 1, no stack trace
 * either. A command that registered a stop (a run) is asked to stop and finishes cleanly (its
 * session and audit closed); otherwise the process exits at once.
 */
function endQuietlyOnClosedPipe(streams: { name: "stdout" | "stderr"; stream: NodeJS.WriteStream }[]) {
  const stops = new Set<() => void>();
  let closed = false;
  let failed = false;
  const onError = (name: "stdout" | "stderr", error: NodeJS.ErrnoException) => {
    if (closed || failed) return;
    if (error.code === "EPIPE") closed = true;
    else {
      failed = true;
      if (name === "stdout") sayOnStderr(`gatehouse: cannot write to stdout: ${error.code ?? error.message}\n`);
    }
    if (stops.size === 0) process.exit(failed ? 1 : 0);
    for (const stop of stops) stop();
  };
  for (const { name, stream } of streams) stream.on("error", (error: NodeJS.ErrnoException) => onError(name, error));
  return {
    onOutputClosed(stop: () => void) {
      stops.add(stop);
      return () => {
        stops.delete(stop);
      };
    },
    outputClosed: () => closed,
    outputFailed: () => failed,
  };
}

/** Writes `text` to fd 2 directly, ignoring a failure: there is nowhere left to report one. */
function sayOnStderr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // stderr is unusable too.
  }
}

/** The directory the user ran the command from: `pnpm gatehouse` runs in the repository root and reports it as INIT_CWD. */
export function userCwd(env: NodeJS.ProcessEnv = process.env): string {
  const fromPnpmScript = env.npm_lifecycle_event === "gatehouse" && env.INIT_CWD;
  return fromPnpmScript ? (env.INIT_CWD as string) : process.cwd();
}

/** The real process streams and the user's directory (see `userCwd`). */
export function processIo(): CliIo {
  const pipes = endQuietlyOnClosedPipe([
    { name: "stdout", stream: process.stdout },
    { name: "stderr", stream: process.stderr },
  ]);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: touching process.stdin opens it, and only the --resume picker needs it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: userCwd(),
    onOutputClosed: pipes.onOutputClosed,
    outputClosed: pipes.outputClosed,
    outputFailed: pipes.outputFailed,
  };
}
