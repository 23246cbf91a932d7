import {
  close,
  closeSync,
  constants,
  fstatSync,
  ftruncate,
  lstatSync,
  mkdirSync,
  openSync,
  read,
  readlinkSync,
  type Stats,
  unlinkSync,
  write,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/** What the caller does with the file: read it, change it in place (edit), or create/overwrite it (write). */
export type OpenIntent = "read" | "update" | "replace";

/** A file opened by `openVerified`: exactly the checked one. The caller closes `fd` (`closeFile`). */
export interface VerifiedFile {
  fd: number;
  stats: Stats;
  /** True when this open created the file. */
  created: boolean;
}

/** Options of `openVerified`. */
export interface OpenVerifiedOptions {
  /** The real path to open: absolute, without symbolic links (as `resolveRealPath` gives it). */
  target: string;
  intent: OpenIntent;
  /** The path as the model spelled it, for messages. */
  displayPath: string;
  /** Use `/proc/self/fd` (Linux); default: when it works. `false` forces the portable checks (tests). */
  fdLinks?: boolean;
}

/** The descriptor links of this process: opening `FD/<dirfd>/<name>` resolves `name` in that directory, like openat. */
const FD = "/proc/self/fd";
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

let fdLinksWork: boolean | undefined;

/** Whether `/proc/self/fd/N` names what descriptor N refers to (Linux with /proc mounted). */
function fdLinksAvailable(): boolean {
  if (fdLinksWork === undefined) {
    try {
      const fd = openSync("/", constants.O_RDONLY | O_DIRECTORY);
      try {
        fdLinksWork = readlinkSync(`${FD}/${fd}`) === "/";
      } finally {
        closeSync(fd);
      }
    } catch {
      fdLinksWork = false;
    }
  }
  return fdLinksWork;
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

function changed(options: OpenVerifiedOptions, what: string): Error {
  const nothing = options.intent === "read" ? "nothing was read" : "nothing was written";
  return new Error(`${options.displayPath} changed while the call ran: ${what}; ${nothing}.`);
}

/** The path descriptor `fd` refers to now, or undefined when it has none (deleted). */
function pathOf(fd: number): string | undefined {
  try {
    return readlinkSync(`${FD}/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Opens exactly the file at `target`, never one a symbolic link or a swapped folder leads to.
 * Contract (Linux): the parent folder is opened and its descriptor's path must be `target`'s
 * parent; the file is then opened through that descriptor (`/proc/self/fd/<dirfd>/<name>`, like
 * openat) with O_NOFOLLOW and O_NONBLOCK, and its own descriptor's path must be `target`. Missing
 * parent folders (intent `replace`) are created one by one the same way, so nothing is ever created
 * in the wrong place, not even for a moment; a file this call created where it must not stay is
 * removed again. Elsewhere, the device and inode of every ancestor are compared before and after
 * the open, and the opened file's with what `target` names (best effort). An existing file is never
 * truncated here: a writer truncates the descriptor after this returns. Throws an Error naming
 * `displayPath` when anything changed, or the system error (ENOENT, EISDIR, ...) of the open.
 * The steps are a few metadata calls, made synchronously so no other work interleaves with them;
 * content is read and written asynchronously (`readWhole`, `writeWhole`).
 */
export function openVerified(options: OpenVerifiedOptions): VerifiedFile {
  const useFdLinks = options.fdLinks ?? fdLinksAvailable();
  return useFdLinks ? openThroughDirectory(options) : openComparingInodes(options);
}

function openThroughDirectory(options: OpenVerifiedOptions): VerifiedFile {
  const { target, intent } = options;
  const dir = openDirectory(path.dirname(target), intent === "replace", options);
  try {
    const at = `${FD}/${dir}/${path.basename(target)}`;
    const { fd, created } = openEntry(at, options);
    try {
      const actual = pathOf(fd);
      if (actual !== target) {
        // Only a rename of the verified folder since it was opened gets here: take back what we made.
        if (created) unlinkQuietly(at);
        throw changed(options, `it now is ${actual ?? "a deleted file"}, not ${target}`);
      }
      return { fd, stats: fstatSync(fd), created };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  } finally {
    closeSync(dir);
  }
}

/** Opens the folder `dir` (a real path) and proves the descriptor is that folder; creates it if asked. */
function openDirectory(dir: string, create: boolean, options: OpenVerifiedOptions): number {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | O_DIRECTORY);
  } catch (error) {
    const parent = path.dirname(dir);
    if (!create || code(error) !== "ENOENT" || parent === dir) throw error;
    const up = openDirectory(parent, true, options);
    try {
      const at = `${FD}/${up}/${path.basename(dir)}`;
      try {
        mkdirSync(at);
      } catch (e) {
        if (code(e) !== "EEXIST") throw e;
      }
      try {
        fd = openSync(at, constants.O_RDONLY | O_DIRECTORY | constants.O_NOFOLLOW);
      } catch (e) {
        // With O_NOFOLLOW, a symlink here fails as ELOOP, or as ENOTDIR together with O_DIRECTORY.
        if (code(e) === "ELOOP" || code(e) === "ENOTDIR")
          throw changed(options, `${dir} was replaced by a link or a file`);
        throw e;
      }
    } finally {
      closeSync(up);
    }
  }
  const actual = pathOf(fd);
  if (actual !== dir) {
    closeSync(fd);
    throw changed(options, `the folder ${dir} now leads to ${actual ?? "a deleted folder"}`);
  }
  return fd;
}

/** Opens the last component at `at` without following a link; `replace` creates it when missing. */
function openEntry(at: string, options: OpenVerifiedOptions): { fd: number; created: boolean } {
  const base = constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const open = (flags: number): number => {
    try {
      return openSync(at, flags);
    } catch (error) {
      if (code(error) === "ELOOP") throw changed(options, `${options.target} became a symbolic link`);
      throw error;
    }
  };
  if (options.intent === "replace") {
    try {
      return {
        fd: openSync(at, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | base, 0o666),
        created: true,
      };
    } catch (error) {
      if (code(error) !== "EEXIST") throw error;
    }
    // Read and write, so the writer can say what it replaced (its diff); a file the user may only
    // write is still written.
    try {
      return { fd: open(constants.O_RDWR | base), created: false };
    } catch (error) {
      if (code(error) !== "EACCES") throw error;
    }
    return { fd: open(constants.O_WRONLY | base), created: false };
  }
  return { fd: open((options.intent === "read" ? constants.O_RDONLY : constants.O_RDWR) | base), created: false };
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or no longer ours to remove: the call fails either way.
  }
}

/** The folders from the root down to `dir`. */
function ancestors(dir: string): string[] {
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) return chain;
  }
}

/** Device and inode of each folder, refusing any that is now a symbolic link or not a folder. */
function identities(chain: readonly string[], options: OpenVerifiedOptions): string[] {
  return chain.map((dir) => {
    const info = lstatSync(dir);
    if (!info.isDirectory()) throw changed(options, `${dir} is no longer a folder`);
    return `${info.dev}:${info.ino}`;
  });
}

/** The portable fallback: compare identities before and after the open (best effort, no openat). */
function openComparingInodes(options: OpenVerifiedOptions): VerifiedFile {
  const { target, intent } = options;
  const chain = ancestors(path.dirname(target));
  if (intent === "replace") mkdirSync(path.dirname(target), { recursive: true });
  const before = identities(chain, options);
  const { fd, created } = openEntry(target, options);
  try {
    const after = identities(chain, options);
    const stats = fstatSync(fd);
    const named = lstatSync(target, { throwIfNoEntry: false });
    const same = named !== undefined && named.dev === stats.dev && named.ino === stats.ino;
    if (!same || after.some((id, i) => id !== before[i])) {
      if (created && same) unlinkQuietly(target);
      throw changed(options, "a folder on its path was replaced");
    }
    return { fd, stats, created };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

const readAt = promisify(read);
const writeAt = promisify(write);
const truncateFd = promisify(ftruncate);
const closeFd = promisify(close);

/**
 * The largest file a tool loads whole (`read`, `edit`): a 3 GiB file failed with Node's own range
 * error, and a few parallel calls on large sparse files took gigabytes of memory.
 */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a whole file from its start. A file that reported its size and gave exactly that much (the
 * one extra byte asked for did not come) has ended after one read; anything else (a file that grew,
 * a /proc file reporting size 0) is read until a read returns nothing, but never past `maxBytes`
 * (default `MAX_WHOLE_FILE_BYTES`): a file that keeps growing throws an Error naming `displayPath`.
 */
export async function readWhole(
  file: VerifiedFile,
  options: { displayPath: string; maxBytes?: number },
): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_WHOLE_FILE_BYTES;
  const expected = file.stats.size;
  const chunks: Buffer[] = [];
  let position = 0;
  for (let size = expected + 1; ; size = 64 * 1024) {
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await readAt(file.fd, buffer, 0, size, position);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
    // A file another process keeps appending to (a log) would otherwise be read for ever.
    if (position > maxBytes) {
      throw new Error(
        `${options.displayPath} grew past ${maxBytes} bytes while it was read (another process is writing it); nothing was loaded.`,
      );
    }
    if (expected > 0 && position === expected && bytesRead < size) break;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/** Replaces the whole content of a file opened for writing (truncate, then write from offset 0). */
export async function writeWhole(file: VerifiedFile, data: Buffer): Promise<void> {
  await truncateFd(file.fd, 0);
  for (let offset = 0; offset < data.length; ) {
    const { bytesWritten } = await writeAt(file.fd, data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}

/** Closes a verified file. */
export const closeFile = (file: VerifiedFile): Promise<void> => closeFd(file.fd);
