import { constants, readlinkSync } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import { isInside } from "./walk-tree.ts";

/** Why a file was not opened. */
export type OpenRefusal = "withheld" | "outside" | "not-file";

/** The real path of what a descriptor refers to, from the kernel where it says (Linux `/proc/self/fd`). */
async function openedPath(handle: FileHandle, absPath: string): Promise<string | undefined> {
  try {
    const shown = readlinkSync(`/proc/self/fd/${handle.fd}`);
    // A file unlinked after it was opened has no path any more; nothing can vouch for it.
    return shown.endsWith(" (deleted)") ? undefined : shown;
  } catch {
    // No procfs (macOS): the path resolved right after opening is the best available answer.
    return realpath(absPath).catch(() => undefined);
  }
}

/**
 * Opens a regular file for reading and checks the file it actually opened, not the path it was
 * given: a symlink or directory swapped in between a check and this open is caught here.
 * Contract: resolves to an open handle (the caller closes it) only when the opened file is a
 * regular file, its real path lies inside `within` (when given) and `canRead` accepts that real
 * path (when given); otherwise closes it and says why. FIFOs and devices never block the open.
 * Rejects only when the path cannot be opened at all.
 */
export async function openChecked(
  absPath: string,
  options: { within?: string | undefined; canRead?: ((absolutePath: string) => boolean) | undefined },
): Promise<{ handle: FileHandle } | { refused: OpenRefusal }> {
  const handle = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const refuse = async (refused: OpenRefusal) => {
    await handle.close();
    return { refused };
  };
  if (!(await handle.stat()).isFile()) return refuse("not-file");
  const real = await openedPath(handle, absPath);
  if (real === undefined) return refuse("withheld");
  if (options.within !== undefined && !isInside(options.within, real)) return refuse("outside");
  if (options.canRead && !options.canRead(real)) return refuse("withheld");
  return { handle };
}
