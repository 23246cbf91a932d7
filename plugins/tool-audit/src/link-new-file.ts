import { randomUUID } from "node:crypto";
import { closeSync, constants, fsyncSync, linkSync, openSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { removeFile } from "./remove-file.ts";

/**
 * Creates `target` holding `text`, whole or not at all: the text goes to a new temporary file beside
 * it (mode 0600, never through a symbolic link), fsynced first with `sync`, which is then linked
 * to `target`. A link fails if the name exists, so two processes never both create it and no
 * reader sees a half-written file.
 * Contract: returns false when `target` already exists; throws on any other error; the temporary
 * file is always removed.
 */
export function linkNewFile(target: string, text: string, options: { sync?: boolean } = {}): boolean {
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, text);
      if (options.sync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    removeFile(temp);
  }
}
