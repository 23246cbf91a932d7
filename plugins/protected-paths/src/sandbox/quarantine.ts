import { lstatSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync, type Stats, unlinkSync } from "node:fs";
import path from "node:path";

/** Where a removed path went. */
export type Removal = { movedTo: string } | { deleted: true };

let counter = 0;

/**
 * Takes a path out of the workspace: moved into the quarantine directory (so nothing a person
 * put there is lost), or deleted when it cannot be moved there (another filesystem).
 * Contract: never follows the path if it is a symlink (the link itself moves); `p` must be a real
 * path: when its directory no longer resolves to itself (a parent was swapped for a symlink) it
 * throws instead of acting somewhere else; throws too when the path can be neither moved nor deleted.
 */
export function quarantine(p: string, directory: () => string): Removal {
  const parent = path.dirname(p);
  if (realpathSync.native(parent) !== parent) {
    throw new Error(`${parent} no longer resolves to itself (a directory was swapped), so ${p} was left in place`);
  }
  try {
    counter += 1;
    const target = path.join(directory(), `${Date.now()}-${process.pid}-${counter}-${path.basename(p)}`);
    renameSync(p, target);
    return { movedTo: target };
  } catch {
    rmSync(p, { recursive: true, force: true });
    return { deleted: true };
  }
}

/** "moved to X" or "deleted", for reasons. */
export function describeRemoval(removal: Removal): string {
  return "movedTo" in removal ? `moved out of the workspace to ${removal.movedTo}` : "deleted";
}

/** The entry at `p`, or undefined when there is none, also when a parent is no longer a directory. */
function entryAt(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Removes what bubblewrap may have left where a mask was planned: when a masked path vanished
 * between the plan and the mount (another process took it away), bwrap creates an empty file or
 * directory there to mount onto. One that is empty and is not what was planned over is removed.
 * Contract: only empty regular files and empty directories are ever removed; nothing with content.
 */
export function removePlaceholders(
  planned: ReadonlyMap<string, { dev: number; ino: number; ctimeMs: number } | undefined>,
): void {
  for (const [p, before] of planned) {
    const now = entryAt(p);
    // The inode number alone is no identity: a file system may hand a freed one out again.
    const same = before && now?.dev === before.dev && now.ino === before.ino && now.ctimeMs === before.ctimeMs;
    if (!now || same) continue;
    try {
      if (now.isFile() && now.size === 0) unlinkSync(p);
      else if (now.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}
