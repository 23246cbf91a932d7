import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** The most a seal file may hold: two slots of one seal line (a long log path included). */
export const MAX_SEAL_FILE_BYTES = 64 * 1024;
/** The most a bucket file may hold: one seal line per session of its range. */
export const MAX_BUCKET_FILE_BYTES = 8 * 1024 * 1024;

/**
 * A seal or bucket file's text, refusing what could not be one: a file larger than `max` bytes
 * (a planted huge file would otherwise be read whole by every session start and by verify), or
 * anything but a regular file (a FIFO would block). Opens without following a final symlink.
 * Contract: throws an Error naming the file on any of these and on I/O errors.
 */
export function readBoundedText(file: string, max: number): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    if (stat.size > max) throw new Error(`${file} holds ${stat.size} bytes, more than a seal file can (${max})`);
    const buffer = Buffer.alloc(stat.size);
    let size = 0;
    for (let n = 1; n > 0 && size < buffer.length; size += n)
      n = readSync(fd, buffer, size, buffer.length - size, null);
    return buffer.toString("utf8", 0, size);
  } finally {
    closeSync(fd);
  }
}
