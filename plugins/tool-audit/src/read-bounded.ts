import { closeSync, readSync } from "node:fs";
import { openForReading } from "./log-file.ts";

/** Seals are ASCII JSON (a path may add UTF-8): invalid UTF-8 is refused, never mapped to U+FFFD. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The most a seal file may hold: two slots of one seal line (a long log path included). */
export const MAX_SEAL_FILE_BYTES = 64 * 1024;
/** The most a bucket file may hold: one seal line per session of its range. */
export const MAX_BUCKET_FILE_BYTES = 8 * 1024 * 1024;

/**
 * A seal or bucket file's text, refusing what could not be one: a file larger than `max` bytes
 * (a planted huge file would otherwise be read whole by every session start and by verify), or
 * anything but a regular file (a FIFO would block). Opens without following a final symlink.
 * Contract: throws an Error naming the file on any of these, on invalid UTF-8 and on I/O errors.
 */
export function readBoundedText(file: string, max: number): string {
  const { fd, size } = openForReading(file, { noFollow: true });
  try {
    if (size > max) throw new Error(`${file} holds ${size} bytes, more than a seal file can (${max})`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    for (let n = 1; n > 0 && read < size; read += n) n = readSync(fd, buffer, read, size - read, null);
    try {
      return strictUtf8.decode(buffer.subarray(0, read));
    } catch {
      throw new Error(`${file} is not valid UTF-8`);
    }
  } finally {
    closeSync(fd);
  }
}
