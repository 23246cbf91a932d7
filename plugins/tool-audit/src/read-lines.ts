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
}

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
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let pos = 0;
    for (let nl = chunk.indexOf(0x0a, pos); nl !== -1; nl = chunk.indexOf(0x0a, pos)) {
      const piece = chunk.subarray(pos, nl);
      const bytes = parts.length > 0 ? Buffer.concat([...parts, piece]) : piece;
      parts = [];
      offset += bytes.length + 1;
      yield { line: line++, bytes, terminated: true, end: offset };
      pos = nl + 1;
    }
    if (pos < chunk.length) parts.push(chunk.subarray(pos));
  }
  if (parts.length > 0) {
    const bytes = Buffer.concat(parts);
    yield { line, bytes, terminated: false, end: offset + bytes.length };
  }
}
