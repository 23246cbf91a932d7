import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The CLI entry, run from source exactly as `pnpm gatehouse` runs it. */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "gatehouse.mjs");

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
    const child = spawn(process.execPath, [CLI, ...args], {
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
