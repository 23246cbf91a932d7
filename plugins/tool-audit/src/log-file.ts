import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync } from "node:fs";
import { dirname, sep } from "node:path";

/** Which file a descriptor is: what the sink compares with the path before and after each write. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** Kernel file systems where an audit log cannot live (writing there changes the system, or hangs). */
const PSEUDO_ROOTS = ["/proc", "/sys", "/dev"];

/** A file error with the path and a short cause, as every audit message states it. */
export class AuditFileError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

function realDir(file: string): string {
  let dir = dirname(file);
  for (;;) {
    try {
      return realpathSync(dir);
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return dir;
      dir = parent;
    }
  }
}

/**
 * Why `file` cannot hold an audit log, judged by where it really is (symbolic links resolved);
 * undefined when it can. Contract: never throws; touches nothing.
 */
export function unusableLocation(file: string): string | undefined {
  const real = realDir(file);
  const root = PSEUDO_ROOTS.find((r) => real === r || real.startsWith(`${r}${sep}`));
  return root ? `is on the kernel file system ${root}, where an audit log cannot live` : undefined;
}

function refuseNonFile(fd: number, file: string, options: { singleLink?: boolean } = {}): FileIdentity {
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new AuditFileError(`${file} is not a regular file`, "ENOTFILE");
  }
  if (options.singleLink && stat.nlink > 1) {
    closeSync(fd);
    throw new AuditFileError(
      `${file} has ${stat.nlink} hard links: another name (perhaps in a workspace) reaches the audit log`,
      "EMLINK",
    );
  }
  return { dev: stat.dev, ino: stat.ino };
}

/**
 * Opens (creating, mode 0600) a log for appending.
 * Contract: refuses a kernel file system (`unusableLocation`), a final symbolic link (`O_NOFOLLOW`),
 * anything but a regular file, a file with more than one hard link (another name could reach
 * it), and one another user owns or may write (what `gatehouse audit verify` refuses); opens non-blocking, so a FIFO fails at once instead of waiting
 * for a reader. Throws with `code` set to the system error code when there is one.
 */
export function openAppendOnly(file: string): { fd: number; identity: FileIdentity } {
  const unusable = unusableLocation(file);
  if (unusable) throw new AuditFileError(`${file} ${unusable}`, "EINVAL");
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const fd = openSync(file, flags, 0o600);
  const identity = refuseNonFile(fd, file, { singleLink: true });
  const foreign = notPrivate(fd, file);
  if (foreign) {
    closeSync(fd);
    throw new AuditFileError(foreign, "EPERM");
  }
  return { fd, identity };
}

/**
 * Why a log others can rewrite must not be appended to: `gatehouse audit verify` refuses such a
 * log (exit 1), so a run writing one would record what can never be verified. Not checked on Windows.
 */
function notPrivate(fd: number, file: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const stat = fstatSync(fd);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    return `${file} is owned by uid ${stat.uid}, not by you (uid ${uid}): its owner could rewrite it; name a log of your own`;
  }
  if ((stat.mode & 0o022) === 0) return undefined;
  const mode = (stat.mode & 0o777).toString(8);
  return `${file} is writable by other users (mode ${mode}): anyone could rewrite it; run chmod 600 on it`;
}

/**
 * Opens a log (or, with `noFollow`, a seal file) for reading.
 * Contract: follows symbolic links unless `noFollow` (a person may name a link to the log) but
 * refuses anything that is not a regular file, opening non-blocking so a FIFO or device never
 * hangs a reader.
 */
export function openForReading(file: string, options: { noFollow?: boolean } = {}): { fd: number; size: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
  refuseNonFile(fd, file);
  return { fd, size: fstatSync(fd).size };
}

/**
 * How the file behind `fd` has changed relative to `file`: "was deleted", "was renamed or moved
 * away", "was replaced by another file", "gained a hard link", "was truncated" (smaller than `minSize`, the size last
 * seen: an append-only log only grows); undefined when the path still names the same file.
 * Contract: compares the descriptor's link count and size and the path's device and inode (the
 * path is not followed, so a symbolic link put in its place counts as a replacement); never
 * throws. `size` is the descriptor's size now, for the next call's `minSize`.
 */
export function fileChange(
  fd: number,
  file: string,
  identity: FileIdentity,
  minSize = 0,
): { change: string | undefined; size: number } {
  let links: number;
  let size: number;
  try {
    ({ nlink: links, size } = fstatSync(fd));
  } catch {
    return { change: "can no longer be checked (its descriptor is gone)", size: 0 };
  }
  let path: { dev: number; ino: number } | undefined;
  try {
    path = lstatSync(file);
  } catch {
    path = undefined;
  }
  const change =
    path && (path.dev !== identity.dev || path.ino !== identity.ino)
      ? "was replaced by another file"
      : !path || links === 0
        ? links === 0
          ? "was deleted"
          : "was renamed or moved away"
        : links > 1
          ? "gained a hard link (another name now reaches it)"
          : size < minSize
            ? `was truncated (from ${minSize} to ${size} bytes)`
            : undefined;
  return { change, size };
}
