import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  type Stats,
  unlinkSync,
} from "node:fs";
import path from "node:path";
import { decodeName, encodePath } from "../scan/raw-fs.ts";

/** Where a removed path went. */
export type Removal = { movedTo: string } | { deleted: true };

let counter = 0;

/** What `/proc/self/fd/N` names (Linux), or `undefined` where there is no such link. */
function descriptorPath(fd: number): string | undefined {
  try {
    return decodeName(readlinkSync(`/proc/self/fd/${fd}`, { encoding: "buffer" }));
  } catch {
    return undefined;
  }
}

/**
 * The path through a descriptor of its folder (`/proc/self/fd/N/name`): no link on the way is
 * followed. A name is a string (bytes escaped as `decodeName` does) or the bytes themselves.
 */
function through(fd: number, name: string | Buffer): string | Buffer {
  const head = `/proc/self/fd/${fd}/`;
  const raw = typeof name === "string" ? encodePath(name) : name;
  return typeof raw === "string" ? head + raw : Buffer.concat([Buffer.from(head), raw]);
}

/** Bytes of a path one call takes with room to spare (PATH_MAX is 4096). */
const SHORT = 3800;

/** O_PATH (Linux): a descriptor that only names a folder. */
const O_PATH = (constants as { O_PATH?: number }).O_PATH ?? 0o10000000;

/**
 * Gives the owner read, write and search on the folder open as `fd` (any kind of descriptor) when
 * it lacks one: a command can `chmod 555` a folder it made, or the workspace root, so that what it
 * put inside can be neither moved nor deleted (EACCES), and Gatehouse runs as the same user, who
 * may change the mode back. A folder of another owner keeps its mode (the removal then says why
 * it fails).
 */
function ownerMayChange(fd: number): void {
  try {
    const info = fstatSync(fd);
    if (!info.isDirectory() || (info.mode & 0o700) === 0o700) return;
    chmodSync(`/proc/self/fd/${fd}`, (info.mode & 0o7777) | 0o700);
  } catch {
    // not the owner's to change
  }
}

/** `ownerMayChange` for the entry at `at` when it is a folder (never following a link). */
function ownerMayChangeAt(at: string | Buffer): void {
  let fd: number;
  try {
    fd = openSync(at, O_PATH | constants.O_NOFOLLOW);
  } catch {
    return;
  }
  try {
    ownerMayChange(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the folder at `at` for listing without following a link, its owner's bits given back
 * first (`ownerMayChange`): one without read permission could not be listed, one without write
 * permission not emptied.
 */
function openOwnFolder(at: string | Buffer): number {
  const handle = openSync(at, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    ownerMayChange(handle);
    return openSync(`/proc/self/fd/${handle}`, constants.O_RDONLY | constants.O_DIRECTORY);
  } finally {
    closeSync(handle);
  }
}

/**
 * Opens the folder `dir` (a real path) without following a link anywhere on the way, or throws.
 * A short path is opened in one call and proven through `/proc/self/fd` to be `dir`; a path longer
 * than one call takes (or whose name `/proc` cannot show) is walked a folder at a time, each
 * opened relative to the last with O_NOFOLLOW: no link can be on the way.
 */
function openFolder(dir: string): number {
  const encoded = encodePath(dir);
  const length = typeof encoded === "string" ? Buffer.byteLength(encoded) : encoded.length;
  if (length <= SHORT) {
    const fd = openSync(encoded, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    if (descriptorPath(fd) === dir) return fd;
    closeSync(fd);
    throw new Error(`${dir} no longer resolves to itself`);
  }
  const names = dir.split("/").filter((n) => n !== "");
  let fd = openSync("/", O_PATH | constants.O_DIRECTORY);
  names.forEach((name, i) => {
    const last = i === names.length - 1;
    const flags = (last ? constants.O_RDONLY : O_PATH) | constants.O_DIRECTORY | constants.O_NOFOLLOW;
    try {
      const next = openSync(through(fd, name), flags);
      closeSync(fd);
      fd = next;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  });
  return fd;
}

/**
 * Deletes the entry `name` of the folder open as `dirFd`, a folder's contents first, each level
 * opened without following a link and acted on through its descriptor: an entry swapped for a
 * link meanwhile is removed as the link, and a folder swapped for one is not entered (it throws).
 */
function removeEntry(dirFd: number, name: string | Buffer): void {
  const at = through(dirFd, name);
  const entry = lstatSync(at, { throwIfNoEntry: false });
  if (entry === undefined) return;
  if (!entry.isDirectory()) {
    unlinkSync(at);
    return;
  }
  const fd = openOwnFolder(at);
  try {
    // Names as bytes: one that is not valid UTF-8 is removed like any other.
    for (const child of readdirSync(`/proc/self/fd/${fd}`, { encoding: "buffer" })) removeEntry(fd, child);
  } finally {
    closeSync(fd);
  }
  rmdirSync(at);
}

/**
 * Takes a path out of the workspace: moved into a folder of its own in the quarantine directory
 * (under its own name, so nothing a person put there is lost and no name grows too long), or,
 * when it cannot be moved there (another file system), deleted.
 * Contract: acts through a descriptor of the parent folder, opened without following a link and
 * proven (through `/proc/self/fd`) to be the folder `p` names: a command running next to the
 * review that swaps a parent for a link out of the workspace makes it throw, never act elsewhere.
 * The entry itself is never followed (a link moves as a link); a folder is deleted level by level
 * through descriptors (see `removeEntry`). The parent folder, and the folders moved or emptied, get
 * their owner's read, write and search bits back where a command took them away. `p` must be a real path. Throws when the path can be
 * neither moved nor deleted.
 */
export function quarantine(p: string, directory: () => string): Removal {
  const parent = path.dirname(p);
  const name = path.basename(p);
  const swapped = () =>
    new Error(`${parent} no longer resolves to itself (a directory was swapped), so ${p} was left in place`);
  let fd: number;
  try {
    // The sandbox, and so the quarantine, needs Linux: without /proc nothing is done.
    fd = openFolder(parent);
  } catch {
    throw swapped();
  }
  try {
    // A folder the command made unwritable (or unlistable) gets its owner's bits back, and so does
    // a folder that is itself the entry (moving it rewrites its `..`): else it would stay in place.
    ownerMayChange(fd);
    ownerMayChangeAt(through(fd, name));
    counter += 1;
    const folder = path.join(directory(), `${Date.now()}-${process.pid}-${counter}`);
    try {
      mkdirSync(folder, { mode: 0o700 });
      renameSync(through(fd, name), encodePath(path.join(folder, name)));
      return { movedTo: path.join(folder, name) };
    } catch {
      removeEntry(fd, name);
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
