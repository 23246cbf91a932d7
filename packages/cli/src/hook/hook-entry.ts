// The built `dist/hook.cjs`: what `gatehouse hook claude-code|codex` loads. An agent starts one
// process per tool call, so this path loads the hook's own code only — no command table, help,
// host or schema library — unless the project has no valid plan (then the full evaluation loads).
// It also leaves Node's stream modules unloaded where it can: stdin is read and the answer written
// with plain reads and writes.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { type CliIo, userCwd } from "../io.ts";
import { answerHook, HOOK_AGENTS, readStdin } from "./answer-hook.ts";
import { relayWithCaCerts, setAsideCaCerts } from "./ca-certs.ts";
import type { EvaluateHook } from "./hook-decide.ts";
import type { HookAgent } from "./hook-payload.ts";

/** The `--cwd` of a plain invocation (none, `--cwd DIR` or `--cwd=DIR`); `false` for anything else. */
function plainCwd(args: readonly string[]): string | undefined | false {
  if (args.length === 0) return undefined;
  const [flag, value] = args;
  if (args.length === 1 && flag?.startsWith("--cwd=") && flag.length > "--cwd=".length) return flag.slice(6);
  if (args.length === 2 && flag === "--cwd" && value !== undefined && !value.startsWith("-")) return value;
  return false;
}

/** Whether stdin is being read through the process stream (which a pending read keeps alive). */
let streaming = false;

/**
 * The descriptor to read stdin with plain reads that cannot block for ever: fd 0 when it is a
 * regular file; for a pipe, a non-blocking descriptor of the same pipe (Linux's /proc/self/fd/0:
 * a blocking read would stall the process where no deadline can fire, when a writer holds the
 * pipe open without writing); otherwise (a terminal, a socket, no /proc) `undefined`: the stream.
 */
function plainInput(): number | undefined {
  const stat = fstatSync(0);
  if (stat.isFile()) return 0;
  if (!stat.isFIFO()) return undefined;
  try {
    return openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}

/**
 * Reads all of stdin (fd 0) up to `limit` bytes with plain reads; once they would block (EAGAIN),
 * or where they could, it goes on through the stream, keeping what was read.
 */
async function readInput(limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  const fd = plainInput();
  if (fd === undefined) {
    streaming = true;
    return readStdin(process.stdin, limit, chunks);
  }
  let size = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") {
          streaming = true;
          return readStdin(process.stdin, limit, chunks);
        }
        if (code === "EOF") break;
        throw error;
      }
      if (n === 0) break;
      size += n;
      if (size > limit) throw new Error(`the payload is larger than ${limit} bytes`);
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
  } finally {
    if (fd !== 0) closeSync(fd);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The process's io, with the output streams created only when first used. */
function lazyIo(): CliIo {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    env: process.env,
    cwd: userCwd(),
  };
}

/**
 * Prints `text` to fd 1 or 2 with plain writes (the stream modules stay unloaded); a non-blocking
 * pipe (EAGAIN) takes the rest through the process stream. A reader that went away (EPIPE) is not
 * an error of the hook.
 */
function print(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(text, "utf8");
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return;
    if (code !== "EAGAIN") throw error;
    const stream = fd === 1 ? process.stdout : process.stderr;
    stream.on("error", (failure: NodeJS.ErrnoException) => {
      if (failure.code !== "EPIPE") throw failure;
    });
    stream.write(rest);
  }
}

/**
 * Answers `gatehouse hook AGENT [--cwd DIR]` (`args` after `hook`) with the payload on stdin.
 * Contract: returns `undefined` having read and written nothing when the arguments need the full
 * command line (help, `install`, any other flag or a typo): the caller runs `main`, which parses
 * them (and refuses the call on a usage error). Otherwise as `hookCommand`: never throws, every
 * failure is a refusal in the agent's protocol.
 */
export async function hookFastPath(
  args: readonly string[],
  options: {
    evaluate: EvaluateHook;
    /** Told when the full evaluation runs in a child process instead (see ca-certs.ts). */
    onRelay?: () => void;
  },
): Promise<number | undefined> {
  const [agent, ...rest] = args;
  if (!HOOK_AGENTS.includes(agent as HookAgent)) return undefined;
  const cwd = plainCwd(rest);
  if (cwd === false) return undefined;
  const io = lazyIo();
  let payload = "";
  const certs = setAsideCaCerts(io.env);
  const answer = await answerHook({
    agent: agent as HookAgent,
    io,
    stdin: async (limit) => {
      payload = await readInput(limit);
      return payload;
    },
    parseFlags: () => cwd,
    // The full evaluation runs the project's extensions: give them the certificates back.
    evaluate: certs
      ? async () => {
          options.onRelay?.();
          return relayWithCaCerts({ args, payload, env: io.env, certs });
        }
      : options.evaluate,
  });
  // Refused before the payload ended: a read still pending must not keep the process alive.
  if (streaming) process.stdin.destroy();
  if (answer.stdout) print(1, answer.stdout);
  if (answer.stderr) print(2, answer.stderr);
  return answer.exitCode;
}
