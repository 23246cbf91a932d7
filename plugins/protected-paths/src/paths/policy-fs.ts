import { constants, lstatSync, readdirSync, readlinkSync, realpathSync, type Stats } from "node:fs";

/** What the policy needs to know about one directory entry or file. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  nlink: number;
  dev: number;
  ino: number;
}

/** One entry of a directory listing, without following symlinks. */
export interface DirEntry {
  name: string;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/**
 * The read-only filesystem view the policy consults. Every method answers `undefined` instead of
 * throwing, so a check never fails because of an unreadable or missing path.
 */
export interface PolicyFs {
  /** The kernel's real path (symlinks, `..` after symlinks and, where folded, case resolved), if it exists. */
  realpath(p: string): string | undefined;
  /** `lstat`: the entry itself, never the target of a symlink. */
  lstat(p: string): FileInfo | undefined;
  /** The raw target of a symlink. */
  readlink(p: string): string | undefined;
  /** The entries of a directory. */
  readdir(p: string): DirEntry[] | undefined;
}

const NO_THROW = Object.freeze({ throwIfNoEntry: false });

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The kind bits of a mode, and the kinds the policy tells apart (see stat(2)). */
const { S_IFMT, S_IFREG, S_IFDIR, S_IFLNK } = constants;

function realpathOf(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function lstatOf(p: string): FileInfo | undefined {
  let st: Stats | undefined;
  try {
    // A missing path answers undefined without an exception (writes of new files check one).
    st = lstatSync(p, NO_THROW);
  } catch {
    return undefined;
  }
  if (st === undefined) return undefined;
  // The kind from the mode bits directly (what isFile() and friends compute, one call each).
  const kind = st.mode & S_IFMT;
  return {
    isFile: kind === S_IFREG,
    isDirectory: kind === S_IFDIR,
    isSymbolicLink: kind === S_IFLNK,
    nlink: st.nlink,
    dev: st.dev,
    ino: st.ino,
  };
}

/** The policy's view of the real filesystem (synchronous: a check is a handful of syscalls). */
export const nodePolicyFs: PolicyFs = {
  realpath: realpathOf,
  lstat: lstatOf,
  readlink: (p) => attempt(() => readlinkSync(p)),
  readdir: (p) =>
    attempt(() =>
      readdirSync(p, { withFileTypes: true }).map((d) => ({
        name: d.name,
        isDirectory: d.isDirectory(),
        isSymbolicLink: d.isSymbolicLink(),
      })),
    ),
};
