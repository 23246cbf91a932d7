import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * True when `file` is a non-empty regular file whose last byte is not a newline: its last line was
 * torn (a crash mid-write), and a new line appended as-is would be glued to the fragment.
 * Contract: never throws (false when the file is missing or unreadable); never opens anything but
 * a regular file, so a FIFO or device as the audit target cannot block here: the file is opened
 * without waiting and without following a link, and what was opened is what is checked (a FIFO
 * swapped in between a look and an open is never waited on).
 */
export function endsTorn(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, stat.size - 1);
    return last[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
