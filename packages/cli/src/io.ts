/** Where a command writes; injectable so commands can be tested in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** The directory the user ran the command from. */
  cwd: string;
}

/** A reader that closed the pipe early (`gatehouse ... | head -1`) has all it wants: end quietly. */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
}

/** The real process streams and the user's directory (pnpm scripts report it as INIT_CWD). */
export function processIo(): CliIo {
  endQuietlyOnClosedPipe(process.stdout);
  const fromPnpmScript = process.env.npm_lifecycle_event === "gatehouse" && process.env.INIT_CWD;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: fromPnpmScript ? (process.env.INIT_CWD as string) : process.cwd(),
  };
}
