import { realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { gatehouseHome } from "@gatehouse/host/hook-plan";

/** The user's Gatehouse home, real path; undefined when it is unusable (the command reports that itself). */
function realHome(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return realpathSync(gatehouseHome(env));
  } catch {
    return undefined;
  }
}

/** Whether `dir/.gatehouse` is a project's folder: a directory, not the user's Gatehouse home, and (above `start`) the user's own. */
function holdsProject(dir: string, options: { home: string | undefined; own: boolean }): boolean {
  const folder = join(dir, ".gatehouse");
  const info = statSync(folder, { throwIfNoEntry: false });
  if (!info?.isDirectory()) return false;
  try {
    if (options.home !== undefined && realpathSync(folder) === options.home) return false;
  } catch {
    return false;
  }
  const uid = process.getuid?.();
  return !options.own || uid === undefined || info.uid === uid;
}

/**
 * The project a command run in `start` belongs to: `start` itself when it has a `.gatehouse/`
 * folder, else the nearest folder above it that has one, else `start`.
 * Contract: like git's search for a repository, so a command run from a subdirectory applies the
 * project's settings and guards instead of running unguarded in a folder that has none. The user's
 * Gatehouse home (`~/.gatehouse`, `GATEHOUSE_HOME`) is never taken for a project's folder; above
 * `start` only a `.gatehouse/` the user owns counts (another user's `/tmp/.gatehouse` never
 * chooses the settings of a run in `/tmp/mine`), as git refuses a repository of dubious ownership.
 */
export function enclosingProject(start: string, env: NodeJS.ProcessEnv): string {
  const home = realHome(env);
  if (holdsProject(start, { home, own: false })) return start;
  let dir = start;
  while (dirname(dir) !== dir) {
    dir = dirname(dir);
    if (holdsProject(dir, { home, own: true })) return dir;
  }
  return start;
}
