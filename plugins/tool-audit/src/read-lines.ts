import { createReadStream } from "node:fs";
import { openForReading } from "./log-file.ts";

/** One line of a file, as bytes. */
export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** The line's exact bytes, without the newline. */
  bytes: Buffer;
  /** False for a last line that has no newline. */
  terminated: boolean;
  /** The byte offset just after this line (after its newline when it has one). */
  end: number;
  /**
   * Set for a line longer than `MAX_LINE_BYTES`: its length in bytes. Its bytes are not kept
   * (`bytes` is empty): no record is that long, and holding or parsing it could exhaust memory.
   */
  oversized?: number;
}

/** The longest line kept: twice the longest record the audit writes (`MAX_RECORD_FIELDS_BYTES`). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Where to read. */
export interface ReadLinesOptions {
  /** Byte offset to start at (the start of a line); default 0. */
  start?: number;
  /** Byte offset to stop before; default the end of the file. */
  end?: number;
  /** The number of the first line read; default 1. */
  firstLine?: number;
}

/**
 * Streams a file line by line as exact bytes, in constant memory per line (large files are fine).
 * Contract: splits on `\n` only; a final line without a newline is yielded with
 * `terminated: false`; an empty file yields nothing. Rejects if the file cannot be read or is not
 * a regular file (a FIFO or device is refused at once, never waited on).
 */
export async function* readLines(file: string, options: ReadLinesOptions = {}): AsyncGenerator<RawLine> {
  const start = options.start ?? 0;
  if (options.end !== undefined && options.end <= start) return;
  const { fd } = openForReading(file);
  const stream = createReadStream("", {
    fd,
    start,
    ...(options.end !== undefined ? { end: options.end - 1 } : {}),
    highWaterMark: 1 << 16,
  });
  let line = options.firstLine ?? 1;
  let offset = start;
  let parts: Buffer[] = [];
  let held = 0;
  /** Bytes of the current line not kept once it grew past the limit. */
  let dropped = 0;
  const empty = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let pos = 0;
    for (let nl = chunk.indexOf(0x0a, pos); nl !== -1; nl = chunk.indexOf(0x0a, pos)) {
      const piece = chunk.subarray(pos, nl);
      if (dropped > 0 || held + piece.length > MAX_LINE_BYTES) {
        const length = dropped + held + piece.length;
        offset += length + 1;
        yield { line: line++, bytes: empty, terminated: true, end: offset, oversized: length };
      } else {
        const bytes = parts.length > 0 ? Buffer.concat([...parts, piece]) : piece;
        offset += bytes.length + 1;
        yield { line: line++, bytes, terminated: true, end: offset };
      }
      parts = [];
      held = 0;
      dropped = 0;
      pos = nl + 1;
    }
    if (pos >= chunk.length) continue;
    const rest = chunk.subarray(pos);
    if (dropped > 0 || held + rest.length > MAX_LINE_BYTES) {
      dropped += held + rest.length;
      parts = [];
      held = 0;
    } else {
      parts.push(rest);
      held += rest.length;
    }
  }
  if (dropped > 0) {
    const length = dropped + held;
    yield { line, bytes: empty, terminated: false, end: offset + length, oversized: length };
  } else if (parts.length > 0) {
    const bytes = Buffer.concat(parts);
    yield { line, bytes, terminated: false, end: offset + bytes.length };
  }
}
