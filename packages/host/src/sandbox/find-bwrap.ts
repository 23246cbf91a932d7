import { accessSync, constants } from "node:fs";
import path from "node:path";

/** Where bubblewrap is installed by system package managers; PATH is not searched. */
export const BWRAP_DIRS: readonly string[] = [
  "/usr/bin",
  "/usr/local/bin",
  "/bin",
  "/usr/sbin",
  "/run/current-system/sw/bin",
];

/** Which bwrap to run, or why there is none to run. */
export type BwrapLocation = { path: string } | { missing: string };

/**
 * The bubblewrap executable to run: `GATEHOUSE_BWRAP` when set (an absolute path), otherwise the
 * first executable `bwrap` in `BWRAP_DIRS`.
 * Contract: never consults PATH — a PATH entry inside the workspace (`node_modules/.bin`, a
 * project's `bin/`) would let a command plant a `bwrap` that the host then runs unconfined.
 */
export function findBwrap(env: NodeJS.ProcessEnv): BwrapLocation {
  const configured = env.GATEHOUSE_BWRAP;
  if (configured !== undefined && configured !== "") {
    if (!path.isAbsolute(configured))
      return { missing: `GATEHOUSE_BWRAP must be an absolute path, not ${JSON.stringify(configured)}` };
    return { path: configured };
  }
  for (const dir of BWRAP_DIRS) {
    const candidate = path.join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return { path: candidate };
    } catch {
      // not here
    }
  }
  return { missing: `bwrap was not found in ${BWRAP_DIRS.join(", ")} (set GATEHOUSE_BWRAP to its absolute path)` };
}
