import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  unlinkSync,
} from "node:fs";
import path from "node:path";

/** Where a removed path went. */
export type Removal = { movedTo: string } | { deleted: true };

let counter = 0;

/** What `/proc/self/fd/N` names (Linux), or `undefined` where there is no such link. */
function descriptorPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Takes a path out of the workspace: moved into the quarantine directory (so nothing a person
 * put there is lost), or, when it cannot be moved there (another file system), deleted if it is
 * not a folder.
 * Contract: acts through a descriptor of the parent folder, opened without following a link and
 * proven (through `/proc/self/fd`) to be the folder `p` names: a command running next to the
 * review that swaps a parent for a link out of the workspace makes it throw, never act elsewhere.
 * The entry itself is never followed (a link moves as a link). A folder is never deleted (a
 * recursive delete would follow what a running command swaps in below it): it stays, and this
 * throws. `p` must be a real path.
 */
export function quarantine(p: string, directory: () => string): Removal {
  const parent = path.dirname(p);
  const swapped = () =>
    new Error(`${parent} no longer resolves to itself (a directory was swapped), so ${p} was left in place`);
  let fd: number;
  try {
    fd = openSync(parent, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    throw swapped();
  }
  try {
    const opened = descriptorPath(fd);
    // Without /proc the path is checked instead (best effort: the sandbox needs Linux anyway).
    if (opened === undefined ? realpathSync.native(parent) !== parent : opened !== parent) throw swapped();
    const at = opened === undefined ? p : `/proc/self/fd/${fd}/${path.basename(p)}`;
    counter += 1;
    const target = path.join(directory(), `${Date.now()}-${process.pid}-${counter}-${path.basename(p)}`);
    try {
      renameSync(at, target);
      return { movedTo: target };
    } catch (error) {
      const entry = lstatSync(at, { throwIfNoEntry: false });
      if (entry === undefined) return { deleted: true };
      if (entry.isDirectory()) {
        const why = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new Error(
          `${p} could not be moved out of the workspace (${why}), and a folder is not deleted; it was left in place`,
        );
      }
      unlinkSync(at);
      return { deleted: true };
    }
  } finally {
    closeSync(fd);
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
