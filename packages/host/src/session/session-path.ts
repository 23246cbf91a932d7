import { closeSync, constants, fstatSync, openSync, realpathSync, type Stats, statfsSync, statSync } from "node:fs";
import path from "node:path";
import { errorMessage, GatehouseError } from "../common/errors.ts";

/**
 * Linux filesystems whose files are kernel interfaces, not storage (statfs magic numbers): reading
 * one may never end or block, writing one may change the running system.
 */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x64626720, "debugfs"],
  [0x74726163, "tracefs"],
  [0x73636673, "securityfs"],
  [0x1cd1, "devpts"],
  [0xcafe4a11, "bpf"],
  [0x6165676c, "pstore"],
  [0xde5e81e4, "efivarfs"],
  [0x62656570, "configfs"],
  [0x65735543, "fusectl"],
  [0x19800202, "mqueue"],
  [0x42494e4d, "binfmt_misc"],
]);

/** Top-level directories that hold devices and kernel interfaces wherever they are mounted from. */
const SYSTEM_TREES = ["/proc", "/sys", "/dev"];

function fail(file: string, why: string, cause?: unknown): GatehouseError {
  return new GatehouseError("GH_SESSION", `Cannot use ${file} as a session file: ${why}.`, { cause });
}

/** The real path of `file`, or of its deepest existing ancestor joined with the rest. */
function realLocation(file: string): { real: string; existing: string } {
  let existing = path.resolve(file);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync.native(existing);
      return { real: path.join(real, ...rest.reverse()), existing: real };
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return { real: path.resolve(file), existing };
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

function kind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Refuses a session path that cannot hold a session: anything under /proc, /sys or /dev, or on a
 * kernel pseudo-filesystem, whatever links lead there.
 * Contract: throws GH_SESSION naming the file and the reason; never reads or opens the file.
 */
export function assertSessionLocation(file: string): void {
  const { real, existing } = realLocation(file);
  const tree = SYSTEM_TREES.find((root) => real === root || real.startsWith(`${root}/`));
  const shown = real === path.resolve(file) ? "" : ` (it resolves to ${real})`;
  if (tree !== undefined) {
    throw fail(file, `it is under ${tree}${shown}, where files are devices and kernel interfaces, not storage`);
  }
  if (process.platform !== "linux") return;
  let type: number | undefined;
  try {
    type = statfsSync(existing).type;
  } catch {
    return; // the open that follows reports an unreachable place with its own error
  }
  const name = PSEUDO_FILESYSTEMS.get(type);
  if (name !== undefined) throw fail(file, `it is on the ${name} kernel filesystem${shown}, not on storage`);
}

/**
 * Opens a session file without ever blocking, and only if it is a regular file on storage.
 * Contract: `flags` are `fs.constants` open flags (O_NONBLOCK is added, so a FIFO cannot hang the
 * call); returns the descriptor; throws GH_SESSION naming the file when the place or the file is
 * unusable (a pipe, a device, a directory, /proc, ...), closing what it opened.
 */
export function openSessionFile(file: string, flags: number, mode = 0o600): number {
  assertSessionLocation(file);
  let existing: Stats | undefined;
  try {
    existing = statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    throw fail(file, errorMessage(error), error); // a link loop (ELOOP), a path through a file (ENOTDIR), ...
  }
  if (existing !== undefined && !existing.isFile()) {
    throw fail(file, `it is ${kind(existing)}; a session must be a regular file`);
  }
  let fd: number;
  try {
    fd = openSync(file, flags | constants.O_NONBLOCK, mode);
  } catch (error) {
    throw fail(file, errorMessage(error), error);
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw fail(file, `it is ${kind(stats)}; a session must be a regular file`);
  }
  return fd;
}
