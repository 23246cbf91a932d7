import { randomUUID } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type Truncation, truncateTail } from "./truncate.ts";

const NEWLINE = 0x0a;

/** The end of a command's output, plus where the whole of it was saved when it did not fit. */
export interface CommandOutputSummary {
  tail: Truncation;
  /** Lines and bytes of the whole output, not just the part kept in memory. */
  totalLines: number;
  totalBytes: number;
  fullOutputPath?: string;
}

/**
 * Collects a command's output in arrival order with bounded memory.
 * Only a rolling tail stays in memory; once the output outgrows the caps, everything (from the
 * first byte) also goes to a temp file, so a command that prints gigabytes costs disk, not heap.
 */
export class CommandOutput {
  readonly #maxLines = DEFAULT_MAX_LINES;
  readonly #maxBytes = DEFAULT_MAX_BYTES;
  #chunks: Buffer[] = [];
  #held = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastByte = NEWLINE;
  #file: WriteStream | undefined;
  #filePath: string | undefined;

  /** Appends one chunk as it arrived from stdout or stderr. */
  push(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) this.#newlines++;
    if (chunk.length > 0) this.#lastByte = chunk[chunk.length - 1] ?? NEWLINE;
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    if (this.#file === undefined && (this.#totalBytes > this.#maxBytes || this.#newlines > this.#maxLines)) {
      this.#openFile();
    } else {
      this.#file?.write(chunk);
    }
    // Dropping old chunks is safe only once the file holds them; twice the byte cap keeps the tail whole.
    while (
      this.#file !== undefined &&
      this.#chunks.length > 1 &&
      this.#held - (this.#chunks[0]?.length ?? 0) >= 2 * this.#maxBytes
    ) {
      this.#held -= this.#chunks.shift()?.length ?? 0;
    }
  }

  /** The end of the output so far, within the caps (for progress updates). */
  tail(): Truncation {
    return truncateTail(Buffer.concat(this.#chunks).toString("utf8"), {
      maxLines: this.#maxLines,
      maxBytes: this.#maxBytes,
    });
  }

  /**
   * Closes the output.
   * Contract: when the tail is truncated, `fullOutputPath` names a file with the whole output,
   * unless that file could not be written (then it is absent and the output is not lost from the tail).
   */
  async finish(): Promise<CommandOutputSummary> {
    const tail = this.tail();
    const totalLines = this.#totalBytes === 0 ? 0 : this.#newlines + (this.#lastByte === NEWLINE ? 0 : 1);
    const summary: CommandOutputSummary = { tail, totalLines, totalBytes: this.#totalBytes };
    if (!tail.truncated) return summary;
    try {
      if (this.#file === undefined) {
        // Nothing was dropped yet, so the memory holds all of it.
        this.#filePath = this.#newPath();
        await writeFile(this.#filePath, Buffer.concat(this.#chunks));
      } else {
        this.#file.end();
        await finished(this.#file);
      }
      if (this.#filePath !== undefined) summary.fullOutputPath = this.#filePath;
    } catch {
      // The tail is still returned; only the pointer to the full output is lost.
    }
    return summary;
  }

  #newPath(): string {
    return path.join(tmpdir(), `gatehouse-bash-${randomUUID()}.log`);
  }

  #openFile(): void {
    this.#filePath = this.#newPath();
    this.#file = createWriteStream(this.#filePath);
    this.#file.on("error", () => {
      this.#filePath = undefined;
    });
    for (const chunk of this.#chunks) this.#file.write(chunk);
  }
}
