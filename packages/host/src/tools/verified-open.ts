import { closeSync, constants, openSync, readlinkSync, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, unlink } from "node:fs/promises";
import path from "node:path";

/** What the caller does with the file: read it, change it in place (edit), or create/overwrite it (write). */
export type OpenIntent = "read" | "update" | "replace";

/** A file opened by `openVerified`: exactly the checked one. The caller closes `handle`. */
export interface VerifiedFile {
  handle: FileHandle;
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
 */
export async function openVerified(options: OpenVerifiedOptions): Promise<VerifiedFile> {
  const useFdLinks = options.fdLinks ?? fdLinksAvailable();
  return useFdLinks ? openThroughDirectory(options) : openComparingInodes(options);
}

async function openThroughDirectory(options: OpenVerifiedOptions): Promise<VerifiedFile> {
  const { target, intent } = options;
  const dir = await openDirectory(path.dirname(target), intent === "replace", options);
  try {
    const at = `${FD}/${dir.fd}/${path.basename(target)}`;
    const { handle, created } = await openEntry(at, options);
    try {
      const actual = await readlink(`${FD}/${handle.fd}`);
      if (actual !== target) {
        // Only a rename of the verified folder since it was opened gets here: take back what we made.
        if (created) await unlink(at).catch(() => undefined);
        throw changed(options, `it now is ${actual}, not ${target}`);
      }
      return { handle, stats: await handle.stat(), created };
    } catch (error) {
      await handle.close();
      throw error;
    }
  } finally {
    await dir.close();
  }
}

/** Opens the folder `dir` (a real path) and proves the descriptor is that folder; creates it if asked. */
async function openDirectory(dir: string, create: boolean, options: OpenVerifiedOptions): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | O_DIRECTORY);
  } catch (error) {
    const parent = path.dirname(dir);
    if (!create || code(error) !== "ENOENT" || parent === dir) throw error;
    const up = await openDirectory(parent, true, options);
    try {
      const at = `${FD}/${up.fd}/${path.basename(dir)}`;
      await mkdir(at).catch((e: unknown) => {
        if (code(e) !== "EEXIST") throw e;
      });
      // With O_NOFOLLOW, a symlink here fails as ELOOP, or as ENOTDIR together with O_DIRECTORY.
      handle = await open(at, constants.O_RDONLY | O_DIRECTORY | constants.O_NOFOLLOW).catch((e: unknown) => {
        const replaced = code(e) === "ELOOP" || code(e) === "ENOTDIR";
        throw replaced ? changed(options, `${dir} was replaced by a link or a file`) : e;
      });
    } finally {
      await up.close();
    }
  }
  const actual = await readlink(`${FD}/${handle.fd}`).catch(() => undefined);
  if (actual !== dir) {
    await handle.close();
    throw changed(options, `the folder ${dir} now leads to ${actual ?? "a place that cannot be named"}`);
  }
  return handle;
}

/** Opens the last component at `at` (a path through a verified descriptor) without following a link. */
async function openEntry(at: string, options: OpenVerifiedOptions): Promise<{ handle: FileHandle; created: boolean }> {
  const base = constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const onLink = (error: unknown): never => {
    throw code(error) === "ELOOP" ? changed(options, `${options.target} became a symbolic link`) : error;
  };
  if (options.intent === "replace") {
    try {
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | base;
      return { handle: await open(at, flags, 0o666), created: true };
    } catch (error) {
      if (code(error) !== "EEXIST") throw error;
    }
    return { handle: await open(at, constants.O_WRONLY | base).catch(onLink), created: false };
  }
  const access = options.intent === "read" ? constants.O_RDONLY : constants.O_RDWR;
  return { handle: await open(at, access | base).catch(onLink), created: false };
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
async function identities(chain: readonly string[], options: OpenVerifiedOptions): Promise<string[]> {
  const ids: string[] = [];
  for (const dir of chain) {
    const info = await lstat(dir);
    if (!info.isDirectory()) throw changed(options, `${dir} is no longer a folder`);
    ids.push(`${info.dev}:${info.ino}`);
  }
  return ids;
}

/** The portable fallback: compare identities before and after the open (best effort, no openat). */
async function openComparingInodes(options: OpenVerifiedOptions): Promise<VerifiedFile> {
  const { target, intent } = options;
  const chain = ancestors(path.dirname(target));
  if (intent === "replace") await mkdir(path.dirname(target), { recursive: true });
  const before = await identities(chain, options);
  const { handle, created } = await openEntry(target, options);
  try {
    const after = await identities(chain, options);
    const stats = await handle.stat();
    const named = await lstat(target).catch(() => undefined);
    const same = named !== undefined && named.dev === stats.dev && named.ino === stats.ino;
    if (!same || after.some((id, i) => id !== before[i])) {
      if (created && same) await unlink(target).catch(() => undefined);
      throw changed(options, "a folder on its path was replaced");
    }
    return { handle, stats, created };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Replaces the whole content of a file opened for writing (truncate, then write from offset 0). */
export async function writeWhole(handle: FileHandle, data: Buffer): Promise<void> {
  await handle.truncate(0);
  for (let offset = 0; offset < data.length; ) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}
