import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The installed entry of the CLI, bin/gatehouse.js: it runs the built dist/, as users run it (vitest's
 * global setup rebuilds stale packages first, see scripts/build-if-stale.mjs).
 */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "gatehouse.js");

/** What to pass to `node` to run the CLI. */
export const CLI_ARGV = [CLI];

let home: string | undefined;

/**
 * The environment a CLI child starts with: the test's, without vitest's NODE_PATH (pnpm's hoisted
 * store), which would let the child find packages a user's installation cannot and hide a
 * resolution bug.
 */
function childEnv(): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...env } = process.env;
  return env;
}

/** A Gatehouse home of this test file's own, for runs that name none: tests never touch ~/.gatehouse. */
function testHome(): string {
  home ??= mkdtempSync(join(tmpdir(), "gh-cli-home-"));
  return home;
}

/** What a CLI child process produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in a child process and waits for it to exit. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string | Uint8Array } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [...CLI_ARGV, ...args], {
    cwd: options.cwd,
    env: { ...childEnv(), NO_COLOR: "1", GATEHOUSE_HOME: testHome(), ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return collect(child, options.stdin ?? "");
}

/** Feeds `stdin` to a spawned child (stdio all pipes) and resolves with its exit code and output. */
export function collect(child: ChildProcess, stdin: string | Uint8Array): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      stdout += d;
    });
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    // A command may stop reading early (an oversize hook payload): the rest of stdin is not an error.
    child.stdin?.on("error", () => {});
    child.stdin?.end(stdin);
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
    env: { ...childEnv(), NO_COLOR: "1", GATEHOUSE_HOME: testHome(), ...options.env },
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
