/** Where a command writes; injectable so commands can be tested in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** The directory the user ran the command from. */
  cwd: string;
}

/** The real process streams and the user's directory (pnpm scripts report it as INIT_CWD). */
export function processIo(): CliIo {
  const fromPnpmScript = process.env.npm_lifecycle_event === "gatehouse" && process.env.INIT_CWD;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: fromPnpmScript ? (process.env.INIT_CWD as string) : process.cwd(),
  };
}
