import { pino } from "pino";
import type { FsyncMode } from "./record.ts";
import { endsTorn } from "./torn-tail.ts";

/** Why the audit file could not be written. */
export interface AuditWriteFailure {
  code: "GH_AUDIT_WRITE";
  file: string;
  /** What was being done: opening (including creating its folder), writing, flushing or closing. */
  op: "open" | "write" | "flush" | "close";
  /** The system error code when there is one (EACCES, ENOSPC, ENOTDIR, …). */
  errno?: string;
  message: string;
}

/** Options of `openAuditSink`. */
export interface AuditSinkOptions {
  file: string;
  /** "every": each record is written and fsynced before `write` returns; "batch": buffered until `flush`. */
  fsync: FsyncMode;
  /** Called once, on the first failure; the sink drops every record after it. */
  onError?: (failure: AuditWriteFailure) => void;
  /** In batch mode, how many buffered bytes trigger a write without fsync (sonic-boom minLength). */
  batchBytes?: number;
}

type Destination = ReturnType<typeof pino.destination>;

const DEFAULT_BATCH_BYTES = 8192;

/**
 * The append-only audit file, written through pino's destination (sonic-boom) with O_APPEND.
 * Contract: every record is one whole line handed to the destination in one `write`, so lines of
 * processes sharing the file never interleave. Failures never throw: the first one sets
 * `healthy` to false, is reported to `onError` and in `failure`, and later records are dropped.
 * A file whose last line is torn (a crash mid-write) gets a newline first, so the new session's
 * lines stay whole.
 */
export class AuditSink {
  /** The file written to. */
  readonly file: string;
  /** The durability mode. */
  readonly fsync: FsyncMode;
  readonly #onError: ((failure: AuditWriteFailure) => void) | undefined;
  #dest: Destination | undefined;
  #failure: AuditWriteFailure | undefined;
  #ready: Promise<boolean>;
  #submitted = 0;
  #confirmed = 0;
  #dropped = 0;
  #closed = false;

  constructor(options: AuditSinkOptions) {
    this.file = options.file;
    this.fsync = options.fsync;
    this.#onError = options.onError;
    const sync = options.fsync === "every";
    const torn = endsTorn(options.file);
    try {
      this.#dest = pino.destination({
        dest: options.file,
        append: true,
        mkdir: true,
        sync,
        fsync: sync,
        minLength: sync ? 0 : (options.batchBytes ?? DEFAULT_BATCH_BYTES),
      });
    } catch (error) {
      this.#fail("open", error);
    }
    const dest = this.#dest;
    if (!dest) {
      this.#ready = Promise.resolve(false);
      return;
    }
    let opened = sync;
    dest.on("error", (error: unknown) => this.#fail(opened ? "write" : "open", error));
    dest.on("write", (n: number) => {
      this.#confirmed += n;
    });
    this.#ready = sync
      ? Promise.resolve(true)
      : new Promise((resolve) => {
          dest.once("ready", () => {
            opened = true;
            resolve(this.healthy);
          });
          dest.once("error", () => resolve(false));
        });
    if (torn) this.#put("\n");
  }

  /** False after the first failure. */
  get healthy(): boolean {
    return this.#failure === undefined;
  }

  /** The first failure, if any. */
  get failure(): AuditWriteFailure | undefined {
    return this.#failure;
  }

  /** Records dropped because the sink had failed or was closed. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Resolves when the file is open: true, or false if opening failed. */
  ready(): Promise<boolean> {
    return this.#ready;
  }

  #fail(op: AuditWriteFailure["op"], error: unknown): void {
    if (this.#failure) return;
    const err = error as NodeJS.ErrnoException;
    const failure: AuditWriteFailure = {
      code: "GH_AUDIT_WRITE",
      file: this.file,
      op,
      message: err instanceof Error ? err.message : String(error),
    };
    if (typeof err?.code === "string") failure.errno = err.code;
    this.#failure = failure;
    // pino flushes batch destinations synchronously at process exit until they emit "close"; a failed
    // one would throw there ("sonic boom is not ready yet", or the write error again) and crash the exit.
    this.#dest?.emit("close");
    this.#onError?.(failure);
  }

  #put(data: string): void {
    this.#submitted += Buffer.byteLength(data);
    try {
      this.#dest?.write(data);
    } catch (error) {
      // sonic-boom's synchronous fsync throws instead of emitting.
      this.#fail("write", error);
    }
  }

  /** Appends one line (a newline is added). Returns false when the record was not accepted. */
  write(line: string): boolean {
    if (!this.healthy || this.#closed || !this.#dest) {
      this.#dropped++;
      return false;
    }
    this.#put(`${line}\n`);
    return this.healthy;
  }

  #flushOnce(dest: Destination): Promise<void> {
    return new Promise((resolve) => {
      dest.flush((error) => {
        if (error) this.#fail("flush", error);
        resolve();
      });
    });
  }

  /**
   * Writes everything buffered and fsyncs it (batch mode); a no-op in "every" mode, where each
   * record is already durable. Resolves with `healthy`.
   */
  async flush(): Promise<boolean> {
    const dest = this.#dest;
    if (!dest || !this.healthy || this.fsync === "every") return this.healthy;
    if (!(await this.#ready)) return false;
    // A flush that starts while a write is in flight may leave the tail buffered: repeat until all is on disk.
    do await this.#flushOnce(dest);
    while (this.healthy && this.#confirmed < this.#submitted);
    return this.healthy;
  }

  /** Flushes, fsyncs and closes the file. Resolves with `healthy`; later writes are dropped. */
  async close(): Promise<boolean> {
    if (this.#closed) return this.healthy;
    const dest = this.#dest;
    if (!dest) {
      this.#closed = true;
      return false;
    }
    await this.flush();
    this.#closed = true;
    if (!this.healthy) {
      dest.destroy();
      return false;
    }
    await new Promise<void>((resolve) => {
      dest.once("close", () => resolve());
      dest.once("error", (error: unknown) => {
        this.#fail("close", error);
        resolve();
      });
      dest.end();
    });
    return this.healthy;
  }
}

/** Opens the audit file for appending (see `AuditSink`). */
export function openAuditSink(options: AuditSinkOptions): AuditSink {
  return new AuditSink(options);
}
