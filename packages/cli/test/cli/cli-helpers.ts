import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The CLI's development entry: runs the CLI from its TypeScript sources (see bin/dev.mjs). */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "dev.mjs");

/**
 * What to pass to `node` to run the CLI from source: the source export condition first, so the
 * entry does not re-spawn itself (a signal sent to the child must reach the CLI itself).
 */
export const CLI_ARGV = ["--conditions=@gatehouse/source", CLI];

/** What a CLI child process produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in a child process and waits for it to exit. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGV, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** Writes a script file and returns its path. */
export function writeScript(dir: string, turns: unknown[], name = "script.json"): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ turns }, null, 2));
  return file;
}

/** Parses --json output into events. */
export function events(stdout: string): { type: string; [key: string]: unknown }[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** A CLI child process that is still running: its output so far, and waits on that output. */
export interface LiveCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once `test(stdout)` holds; rejects (with stderr) if the child exits first. */
  waitFor(test: (stdout: string) => boolean): Promise<void>;
  /** Settles when the process has exited and its output is complete. */
  exited: Promise<CliRun & { signal: NodeJS.Signals | null }>;
}

/** Starts the real CLI in a child process without waiting for it: for tests that act mid-run. */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): LiveCli {
  const child = spawn(process.execPath, [...CLI_ARGV, ...args], {
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (d) => {
    stdout += d;
    for (const check of waiters) check();
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<CliRun & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const waitFor = (test: (out: string) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test(stdout)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
      void exited.then(({ code, signal }) => {
        if (!waiters.delete(check)) return;
        reject(
          new Error(
            `CLI exited (${code ?? signal}) before the awaited output.\nstdout:\n${stdout}\nstderr:\n${stderr}`,
          ),
        );
      });
    });
  return { child, stdout: () => stdout, stderr: () => stderr, waitFor, exited };
}
