import type { ChildProcess, StdioOptions } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { toError } from "../common/errors.ts";
import { spawn } from "../common/lazy-spawn.ts";
import type { ShellGroups } from "./shell-groups.ts";

/**
 * How long to keep reading after the shell exits. A background job (`server &`) inherits the
 * pipes and would keep them open for its whole life; waiting for that would hang the call.
 */
export const EXIT_GRACE_MS = 200;

/**
 * How long to wait, after the exit, for the status pipe to end. Only the launcher holds it, so it
 * ends with the launcher; the bound only keeps a launcher bug from hanging the call.
 */
export const STATUS_WAIT_MS = 5_000;

/** How a shell run ended. */
export interface ShellExit {
  /** The shell's exit code; null when it was killed by a signal or never started. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Set when bash could not be started at all (missing cwd, no bash). */
  spawnError?: Error;
}

/** What `runShell` needs: the command, where to run it, how long it may take and where output goes. */
export interface ShellOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives stdout and stderr chunks interleaved in arrival order (stdout only when `onStderr` is given). */
  onData: (chunk: Buffer) => void;
  /** Receives stderr apart from stdout. */
  onStderr?: (chunk: Buffer) => void;
  /** Written to the shell's stdin, which is then closed (default: no stdin). */
  stdin?: string;
  /**
   * The program and arguments to start instead of `bash -c command` (a sandbox launcher that runs
   * the shell itself); the process group it leads is what a timeout or abort kills.
   */
  argv?: readonly [string, ...string[]];
  /** The environment (default: the host's). */
  env?: NodeJS.ProcessEnv;
  /**
   * A pipe the program gets as descriptor 3 (a sandbox launcher's status report): `onData` gets
   * what it writes, `onEnd` is called once every writer has closed it. The run resolves only after
   * that end (or STATUS_WAIT_MS after the exit, without `onEnd`).
   */
  status?: { onData: (chunk: Buffer) => void; onEnd: () => void };
  /**
   * Bytes the program reads from descriptor 4, which is then closed (a sandbox launcher's seccomp
   * filter, `bwrap --seccomp 4`).
   */
  feed?: Buffer;
  /** Where the group is remembered when the shell exits with background jobs still running. */
  groups?: ShellGroups;
}

/** The descriptor `feed` is given on. */
export const FEED_FD = 4;

/** setTimeout fires at once for delays above this (2^31-1 ms, about 24.8 days), so longer ones are capped. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // Negative pid: the whole process group the detached shell leads, so its children die too.
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * Runs `bash -c command` (or `argv`) in its own process group and resolves when it is over.
 * Contract: never rejects. On timeout or abort the whole group is SIGKILLed. After the shell exits,
 * output is read until the pipes close or EXIT_GRACE_MS pass, whichever is first (the `status` pipe,
 * which only the launcher holds, is read to its end); processes it left running in the background
 * are not killed, but their group is handed to `options.groups` for the end of the run.
 */
export function runShell(options: ShellOptions): Promise<ShellExit> {
  const { command, cwd, timeoutMs, signal, onData, status } = options;
  const [file, ...args] = options.argv ?? ["bash", "-c", command];
  return new Promise((resolve) => {
    const state = {
      timedOut: false,
      aborted: false,
      exitCode: null as number | null,
      exitSignal: null as NodeJS.Signals | null,
    };
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    let child: ChildProcess;
    try {
      const input = options.stdin === undefined ? "ignore" : "pipe";
      const stdio: StdioOptions = [input, "pipe", "pipe"];
      if (status || options.feed) stdio.push(status ? "pipe" : "ignore");
      if (options.feed) stdio.push("pipe");
      child = spawn(file, args, { cwd, env: options.env, detached: true, stdio });
    } catch (error) {
      // Invalid arguments (a NUL byte in the command) throw synchronously instead of emitting "error".
      resolve({ ...state, spawnError: toError(error) });
      return;
    }
    const timer = setTimeout(
      () => {
        state.timedOut = true;
        killGroup(child);
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
    const onAbort = (): void => {
      state.aborted = true;
      killGroup(child);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    // The status pipe: read to its end; the run is over only after it (see `afterExit`).
    const statusPipe = status ? (child.stdio[3] as Readable | null) : null;
    let statusEnded = statusPipe === null;
    let onStatusEnd: (() => void) | undefined;
    statusPipe?.on("data", (chunk: Buffer) => status?.onData(chunk));
    statusPipe?.once("end", () => {
      statusEnded = true;
      status?.onEnd();
      onStatusEnd?.();
    });
    statusPipe?.once("error", () => undefined);
    const finish = (spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      signal.removeEventListener("abort", onAbort);
      // Stop reading pipes a background job may still hold, so they do not keep the host alive.
      child.stdout?.destroy();
      child.stderr?.destroy();
      statusPipe?.destroy();
      resolve(spawnError === undefined ? { ...state } : { ...state, spawnError });
    };
    const afterExit = (): void => {
      clearTimeout(grace);
      if (statusEnded) {
        finish();
        return;
      }
      onStatusEnd = () => finish();
      grace = setTimeout(() => finish(), STATUS_WAIT_MS);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", options.onStderr ?? onData);
    const feed = options.feed ? (child.stdio[FEED_FD] as Writable | null) : null;
    if (options.feed && feed) {
      feed.on("error", () => undefined);
      feed.end(options.feed);
    }
    if (options.stdin !== undefined && child.stdin) {
      // A command that does not read its input closes the pipe early: that is not a failure.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.stdin);
    }
    child.once("error", (error) => finish(error));
    child.once("exit", (code, exitSignal) => {
      state.exitCode = code;
      state.exitSignal = exitSignal;
      // The shell is done: a timeout or abort from now on must not kill what it left in the background;
      // the end of the run does (options.groups).
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (child.pid !== undefined) options.groups?.addIfAlive(child.pid);
      grace = setTimeout(afterExit, EXIT_GRACE_MS);
    });
    child.once("close", afterExit);
  });
}
