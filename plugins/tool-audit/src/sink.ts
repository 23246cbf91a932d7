import { fsyncSync } from "node:fs";
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
  /** "every": each record is written and fsynced before `write` returns; "batch": buffered until `commit`. */
  fsync: FsyncMode;
  /** Called once, on the first failure; the sink drops every record after it. */
  onError?: (failure: AuditWriteFailure) => void;
  /** In batch mode, how many buffered bytes trigger a write before the next commit. */
  batchBytes?: number;
  /** In batch mode, the longest time between fsyncs while commits keep coming, in ms. */
  fsyncIntervalMs?: number;
  /** A pino transport that also receives every line written (e.g. to ship records elsewhere). */
  ship?: { target: string; options?: Record<string, unknown> };
  /** Called when the transport fails; shipping is best effort, the file stays authoritative. */
  onShipError?: (message: string) => void;
}

type Destination = ReturnType<typeof pino.destination>;

const DEFAULT_BATCH_BYTES = 64 * 1024;
const DEFAULT_FSYNC_INTERVAL_MS = 1000;

/**
 * The append-only audit file, written through pino's destination (sonic-boom, synchronous, O_APPEND).
 * Contract: every write hands whole lines to the kernel in one system call, so lines of processes
 * sharing the file never interleave. "every": each record is written and fsynced at once.
 * "batch": records collect in memory and reach the kernel at `commit` (the extension commits at
 * every turn end, so a SIGKILL loses at most the current turn's records) or when `batchBytes`
 * is exceeded; they are fsynced at `flush`/`close` and at most `fsyncIntervalMs` after a commit
 * (bounding what a power loss can take). Failures never throw: the first one sets `healthy` to
 * false, is reported to `onError` and in `failure`, and later records are dropped. A file whose
 * last line is torn (a crash mid-write) gets a newline first, so the new session's lines stay whole.
 */
export class AuditSink {
  /** The file written to. */
  readonly file: string;
  /** The durability mode. */
  readonly fsync: FsyncMode;
  readonly #onError: ((failure: AuditWriteFailure) => void) | undefined;
  readonly #batchBytes: number;
  readonly #fsyncIntervalMs: number;
  #dest: Destination | undefined;
  #ship: ReturnType<typeof pino.transport> | undefined;
  #failure: AuditWriteFailure | undefined;
  #pending = "";
  #unsynced = false;
  #lastFsync = performance.now();
  #dropped = 0;
  #closed = false;

  constructor(options: AuditSinkOptions) {
    this.file = options.file;
    this.fsync = options.fsync;
    this.#onError = options.onError;
    this.#batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.#fsyncIntervalMs = options.fsyncIntervalMs ?? DEFAULT_FSYNC_INTERVAL_MS;
    const torn = endsTorn(options.file);
    try {
      this.#dest = pino.destination({ dest: options.file, append: true, mkdir: true, sync: true });
    } catch (error) {
      this.#fail("open", error);
      return;
    }
    this.#dest.on("error", (error: unknown) => this.#fail("write", error));
    if (torn) this.#writeNow("\n");
    if (options.ship) this.#openShip(options.ship, options.onShipError);
  }

  #openShip(ship: NonNullable<AuditSinkOptions["ship"]>, onError: AuditSinkOptions["onShipError"]): void {
    const report = (error: unknown) =>
      onError?.(`audit transport ${ship.target}: ${error instanceof Error ? error.message : String(error)}`);
    try {
      this.#ship = pino.transport({ target: ship.target, options: ship.options ?? {} });
      this.#ship.on("error", report);
    } catch (error) {
      report(error);
    }
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

  /** Resolves when the file is open: true, or false if opening failed (it opens synchronously). */
  ready(): Promise<boolean> {
    return Promise.resolve(this.#dest !== undefined && this.healthy);
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
    this.#pending = "";
    this.#onError?.(failure);
  }

  /** One system call of whole lines; sonic-boom in sync mode throws on failure. */
  #writeNow(data: string): void {
    if (!this.#dest || data.length === 0) return;
    try {
      this.#dest.write(data);
      this.#unsynced = true;
    } catch (error) {
      this.#fail("write", error);
      return;
    }
    this.#ship?.write(data);
  }

  #fsyncNow(op: AuditWriteFailure["op"]): void {
    if (!this.#dest || !this.#unsynced || !this.healthy) return;
    try {
      fsyncSync((this.#dest as unknown as { fd: number }).fd);
      this.#unsynced = false;
      this.#lastFsync = performance.now();
    } catch (error) {
      this.#fail(op, error);
    }
  }

  /** Appends one line (a newline is added). Returns false when the record was not accepted. */
  write(line: string): boolean {
    if (!this.healthy || this.#closed || !this.#dest) {
      this.#dropped++;
      return false;
    }
    if (this.fsync === "every") {
      this.#writeNow(`${line}\n`);
      this.#fsyncNow("write");
      return this.healthy;
    }
    this.#pending += `${line}\n`;
    if (this.#pending.length >= this.#batchBytes) this.commit();
    return this.healthy;
  }

  /**
   * Hands the batched records to the kernel (they then survive a killed process) and fsyncs if
   * the last fsync is older than `fsyncIntervalMs`. Returns `healthy`.
   */
  commit(): boolean {
    if (!this.healthy || !this.#dest) return this.healthy;
    const data = this.#pending;
    this.#pending = "";
    this.#writeNow(data);
    if (performance.now() - this.#lastFsync >= this.#fsyncIntervalMs) this.#fsyncNow("flush");
    return this.healthy;
  }

  /** Commits and fsyncs everything written so far. Resolves with `healthy`. */
  async flush(): Promise<boolean> {
    this.commit();
    this.#fsyncNow("flush");
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
    const ship = this.#ship;
    if (ship) {
      await new Promise<void>((resolve) => {
        ship.once("close", () => resolve());
        ship.end();
      });
    }
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
