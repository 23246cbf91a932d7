import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** Where system package managers install git; PATH is not searched. */
export const GIT_DIRS: readonly string[] = [
  "/usr/bin",
  "/usr/local/bin",
  "/bin",
  "/opt/homebrew/bin",
  "/run/current-system/sw/bin",
];

let found: string | null | undefined;

/**
 * The git executable the host runs: `GATEHOUSE_GIT` when set to an absolute path, otherwise the
 * first executable `git` in `GIT_DIRS`; `undefined` when there is none.
 * Contract: never consults PATH — an entry inside the workspace (`node_modules/.bin`, which
 * `npm run` puts first) would let a sandboxed command plant a `git` the host then runs unconfined.
 */
export function hostGit(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.GATEHOUSE_GIT;
  if (configured !== undefined && configured !== "") return path.isAbsolute(configured) ? configured : undefined;
  if (found === undefined) {
    found = null;
    for (const dir of GIT_DIRS) {
      try {
        accessSync(path.join(dir, "git"), constants.X_OK);
        found = path.join(dir, "git");
        break;
      } catch {
        // not here
      }
    }
  }
  return found ?? undefined;
}

/** The host's environment without git's own variables (GIT_DIR, GIT_CONFIG_*, …), which would point git elsewhere. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("GIT_")) env[name] = value;
  env.GIT_OPTIONAL_LOCKS = "0";
  return env;
}

/**
 * Runs the host's git (see `hostGit`) with `args` in `cwd`, without git's environment variables and
 * with `core.fsmonitor` off (no program of the repository's configuration runs).
 * Contract: never throws; `undefined` when there is no git to run.
 */
export function runHostGit(
  args: readonly string[],
  options: { cwd: string; input?: string },
): SpawnSyncReturns<string> | undefined {
  const git = hostGit();
  if (git === undefined) return undefined;
  return spawnSync(git, ["-c", "core.fsmonitor=", ...args], {
    cwd: options.cwd,
    ...(options.input !== undefined ? { input: options.input } : {}),
    encoding: "utf8",
    timeout: 10_000,
    maxBuffer: 256 * 1024 * 1024,
    env: gitEnv(),
  });
}
