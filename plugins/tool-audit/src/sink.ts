import { closeSync, fsync, fsyncSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { pino } from "pino";
import { keepLayout } from "./keep-layout.ts";
import { type FileIdentity, fileChange, openAppendOnly } from "./log-file.ts";
import { monotonicMs } from "./monotonic-ms.ts";
import type { FsyncMode } from "./record.ts";
import { endsTorn } from "./torn-tail.ts";
import { writeFully } from "./write-fully.ts";

/** Why the audit file could not be written. */
export interface AuditWriteFailure {
  code: "GH_AUDIT_WRITE";
  file: string;
  /**
   * What was being done: opening (including creating its folder), writing, flushing, closing,
   * sealing; `replaced`: the file was unlinked, renamed or replaced under the sink.
   */
  op: "open" | "write" | "flush" | "close" | "seal" | "replaced";
  /** The system error code when there is one (EACCES, ENOSPC, ENOTDIR, …). */
  errno?: string;
  message: string;
}

/** What the sink does when its file is unlinked, renamed or replaced while it is open. */
export type OnFileReplaced = "stop" | "reopen";

/** Options of `openAuditSink`. */
export interface AuditSinkOptions {
  file: string;
  /** "every": each record is written and fsynced before `write` returns; "batch": buffered until `commit`. */
  fsync: FsyncMode;
  /** Called once, on the first failure; the sink drops every record after it. */
  onError?: (failure: AuditWriteFailure) => void;
  /**
   * "stop" (default): a file unlinked, renamed or replaced under the sink is a failure (`op:
   * "replaced"`). "reopen": the sink opens the path anew, writes there, and calls `onReopened`.
   */
  onFileReplaced?: OnFileReplaced;
  /**
   * Told, after a reopen, why and how many lines this sink had written before (they are in the
   * lost file); the caller records the gap. Lines it writes from here on go to the new file.
   */
  onReopened?: (cause: string, lost: number) => void;
  /** In batch mode, how many buffered bytes trigger a write before the next commit. */
  batchBytes?: number;
  /** In batch mode, the longest time between fsyncs while commits keep coming, in ms. */
  fsyncIntervalMs?: number;
  /** A pino transport that also receives every line written (e.g. to ship records elsewhere). */
  ship?: { target: string; options?: Record<string, unknown> };
  /** Called when the transport fails; shipping is best effort, the file stays authoritative. */
  onShipError?: (message: string) => void;
}

const DEFAULT_BATCH_BYTES = 64 * 1024;
const DEFAULT_FSYNC_INTERVAL_MS = 1000;

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The append-only audit file, written with one `write(2)` per batch on a descriptor opened
 * `O_APPEND | O_NOFOLLOW | O_NONBLOCK` (a FIFO, device or symbolic link is refused, never waited on).
 * Contract: every write hands whole lines to the kernel in one system call, so lines of processes
 * sharing the file never interleave. "every": each record is written and fsynced at once.
 * "batch": records collect in memory and reach the kernel at `commit` (the extension commits at
 * every turn end, so a SIGKILL loses at most the current turn's records) or when `batchBytes`
 * is exceeded; they are fsynced at `flush`/`close` and at most `fsyncIntervalMs` after a commit.
 * Before and after each write the sink compares its descriptor with the path (device, inode, link
 * count, size): a file unlinked, renamed, replaced or truncated is a failure (or, with "reopen",
 * opened anew) —
 * the sink never keeps writing into a file nobody can read. Failures never throw: the first one
 * sets `healthy` to false, is reported to `onError` and in `failure`, and later records are
 * dropped. A file whose last line is torn (a crash mid-write) gets a newline first.
 */
export class AuditSink {
  /** The file written to. */
  readonly file: string;
  /** The durability mode. */
  readonly fsync: FsyncMode;
  readonly #options: AuditSinkOptions;
  readonly #batchBytes: number;
  readonly #fsyncIntervalMs: number;
  #fd: number | undefined;
  #identity: FileIdentity | undefined;
  #ship: ReturnType<typeof pino.transport> | undefined;
  #failure: AuditWriteFailure | undefined;
  /** The batch: whole lines, UTF-8, in a buffer kept for the sink's life (no string per line kept). */
  #pending: Buffer | undefined;
  #pendingBytes = 0;
  #pendingLines = 0;
  /** Lines this sink has written, over every file it has had open. */
  #written = 0;
  #reopened: { cause: string; lost: number } | undefined;
  /** The file's size at the last check: an append-only log never gets smaller. */
  #size = 0;
  /** How many times the file was opened (a reopened file may get the same descriptor number). */
  #opens = 0;
  #unsynced = false;
  #lastFsync = monotonicMs();
  #dropped = 0;
  #closed = false;

  constructor(options: AuditSinkOptions) {
    this.file = options.file;
    this.fsync = options.fsync;
    this.#options = options;
    this.#batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
    this.#fsyncIntervalMs = options.fsyncIntervalMs ?? DEFAULT_FSYNC_INTERVAL_MS;
    if (!this.#open()) return;
    if (options.ship) this.#openShip(options.ship, options.onShipError);
  }

  #open(): boolean {
    const torn = endsTorn(this.file);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const opened = openAppendOnly(this.file);
      this.#fd = opened.fd;
      this.#identity = opened.identity;
      this.#size = 0;
      this.#opens++;
    } catch (error) {
      this.#fail("open", error);
      return false;
    }
    if (torn) this.#writeRaw("\n");
    return this.healthy;
  }

  #openShip(ship: NonNullable<AuditSinkOptions["ship"]>, onError: AuditSinkOptions["onShipError"]): void {
    const report = (error: unknown) => onError?.(`audit transport ${ship.target}: ${messageOf(error)}`);
    try {
      // Loaded only when shipping is configured: a process that only writes the file stays lean.
      // The stat first: after a stat of a FIFO or socket, Node's resolver stops following links
      // at a cached folder and cannot find pino in pnpm's layout (see the host's `readyResolver`).
      statSync(fileURLToPath(import.meta.url));
      const { transport } = createRequire(import.meta.url)("pino") as typeof pino;
      this.#ship = transport({ target: ship.target, options: ship.options ?? {} });
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
    return Promise.resolve(this.#fd !== undefined && this.healthy);
  }

  /** Reports a failure that happened outside the sink but stops it too (e.g. a seal that cannot be written). */
  fail(op: AuditWriteFailure["op"], error: unknown): void {
    this.#fail(op, error);
  }

  #fail(op: AuditWriteFailure["op"], error: unknown): void {
    if (this.#failure) return;
    const failure: AuditWriteFailure = { code: "GH_AUDIT_WRITE", file: this.file, op, message: messageOf(error) };
    const errno = errnoOf(error);
    if (typeof errno === "string") failure.errno = errno;
    this.#failure = failure;
    this.#pendingBytes = 0;
    this.#pendingLines = 0;
    this.#options.onError?.(failure);
  }

  /** Whether the descriptor still is the file at the path; handles a change as configured. */
  #stillThere(): boolean {
    if (this.#fd === undefined || !this.#identity) return false;
    const { change, size } = fileChange(this.#fd, this.file, this.#identity, this.#size);
    this.#size = size;
    if (!change) return true;
    if (this.#options.onFileReplaced !== "reopen") {
      this.#fail("replaced", new Error(`the audit file ${this.file} ${change} while the run was writing to it`));
      return false;
    }
    const lost = this.#written;
    try {
      closeSync(this.#fd);
    } catch {
      // The old descriptor is gone either way.
    }
    this.#fd = undefined;
    if (!this.#open()) return false;
    // Told after the lines being written are out, so the gap record follows them in the file.
    this.#reopened = { cause: `the audit file ${change}; reopened`, lost };
    return true;
  }

  /** One system call of whole lines (retried only for a partial write). */
  #writeRaw(data: string | Buffer): boolean {
    if (this.#fd === undefined || data.length === 0) return this.healthy;
    try {
      writeFully(this.#fd, data);
      this.#unsynced = true;
      return true;
    } catch (error) {
      this.#fail("write", error);
      return false;
    }
  }

  #writeLines(data: string | Buffer, lines: number): void {
    if (lines === 0 || !this.#stillThere() || !this.#writeRaw(data)) return;
    const opens = this.#opens;
    if (!this.#stillThere()) return;
    // The file vanished between the check and the write: the lines went with it; write them again.
    if (this.#opens !== opens && !this.#writeRaw(data)) return;
    this.#written += lines;
    // The transport gets its own copy: a batch buffer is refilled after this.
    this.#ship?.write(typeof data === "string" ? data : data.toString("utf8"));
    const reopened = this.#reopened;
    this.#reopened = undefined;
    if (reopened) this.#options.onReopened?.(reopened.cause, reopened.lost);
  }

  #fsyncNow(op: AuditWriteFailure["op"]): void {
    if (this.#fd === undefined || !this.#unsynced || !this.healthy) return;
    try {
      fsyncSync(this.#fd);
      this.#unsynced = false;
      this.#lastFsync = monotonicMs();
    } catch (error) {
      this.#fail(op, error);
    }
  }

  /** `#fsyncNow` on the thread pool: the main thread goes on while the disk catches up. */
  async #fsyncInBackground(op: AuditWriteFailure["op"]): Promise<void> {
    const fd = this.#fd;
    if (fd === undefined || !this.#unsynced || !this.healthy) return;
    // Lines written while this fsync runs set it again, for the next one.
    this.#unsynced = false;
    try {
      await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
      this.#lastFsync = monotonicMs();
    } catch (error) {
      this.#unsynced = true;
      this.#fail(op, error);
    }
  }

  /** Appends one line (a newline is added). Returns false when the record was not accepted. */
  write(line: string): boolean {
    if (!this.healthy || this.#closed || this.#fd === undefined) {
      this.#dropped++;
      return false;
    }
    if (this.fsync === "every") {
      this.#writeLines(`${line}\n`, 1);
      this.#fsyncNow("write");
      return this.healthy;
    }
    this.#append(line);
    if (this.#pendingBytes >= this.#batchBytes) this.commit();
    return this.healthy;
  }

  /** Adds one line and its newline to the batch buffer, growing it when the line might not fit. */
  #append(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair: 4 for 2 units).
    const room = this.#pendingBytes + 3 * line.length + 1;
    let pending = this.#pending;
    if (!pending || pending.length < room) {
      const grown = Buffer.allocUnsafe(Math.max(room, 2 * (pending?.length ?? 0), this.#batchBytes + 4096));
      pending?.copy(grown, 0, 0, this.#pendingBytes);
      pending = grown;
      this.#pending = pending;
    }
    this.#pendingBytes += pending.write(line, this.#pendingBytes, "utf8");
    pending[this.#pendingBytes++] = 0x0a;
    this.#pendingLines++;
  }

  /** Lines handed to the kernel so far (over every file this sink has had open). */
  get written(): number {
    return this.#written;
  }

  /**
   * Hands the batched records to the kernel (they then survive a killed process) and fsyncs if
   * the last fsync is older than `fsyncIntervalMs`. Returns `healthy`.
   */
  commit(): boolean {
    if (!this.healthy || this.#fd === undefined) return this.healthy;
    // A reopen's gap record joins the batch while it is written: loop until nothing is pending.
    while (this.#pendingLines > 0 && this.healthy && this.#pending) {
      // A view, not a copy: #writeLines is done with it (written and shipped) before it tells of a
      // reopen, whose gap record is the next thing appended to the buffer.
      const data = this.#pending.subarray(0, this.#pendingBytes);
      const lines = this.#pendingLines;
      this.#pendingBytes = 0;
      this.#pendingLines = 0;
      this.#writeLines(data, lines);
    }
    if (monotonicMs() - this.#lastFsync >= this.#fsyncIntervalMs) this.#fsyncNow("flush");
    return this.healthy;
  }

  /**
   * Commits everything written so far (synchronously: it is in the kernel when this returns its
   * promise) and fsyncs it on the thread pool. Resolves with `healthy` once the fsync is done.
   */
  async flush(): Promise<boolean> {
    this.commit();
    await this.#fsyncInBackground("flush");
    return this.healthy;
  }

  /** Flushes, fsyncs and closes the file. Resolves with `healthy`; later writes are dropped. */
  async close(): Promise<boolean> {
    if (this.#closed) return this.healthy;
    if (this.#fd === undefined) {
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
    try {
      closeSync(this.#fd);
    } catch (error) {
      this.#fail("close", error);
    }
    this.#fd = undefined;
    // Closed: the batch buffer goes; the sink itself stays as the layout's keeper (see keepLayout).
    this.#pending = undefined;
    keepLayout("sink", this);
    return this.healthy;
  }

  /** Sends a line to the transport only (seals), when shipping is configured. */
  shipOnly(line: string): void {
    this.#ship?.write(`${line}\n`);
  }
}

/** Opens the audit file for appending (see `AuditSink`). */
export function openAuditSink(options: AuditSinkOptions): AuditSink {
  return new AuditSink(options);
}
