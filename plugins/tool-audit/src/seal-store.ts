import { closeSync, constants, fstatSync, fsync, mkdirSync, openSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { linkNewFile } from "./link-new-file.ts";
import { type FileIdentity, fileChange } from "./log-file.ts";
import { MAX_SEAL_FILE_BYTES, readBoundedText } from "./read-bounded.ts";
import type { MacKey } from "./record.ts";
import { parseSealFile, type Seal, type SealFields, serializeSeal } from "./seal.ts";
import { compactSeals, listSeals, type SealBucket, sealFromBuckets } from "./seal-buckets.ts";

/** What a session knew of the one numbered before it when it started (see `SealWriter.previous`). */
export interface PreviousSession {
  ordinal: number;
  count: number;
  head: string;
  closed: boolean;
}

/** The most seals read to work out `settled` when a session starts (the rest count as unfinished). */
const MAX_SETTLE_READS = 256;

/** The file of seal number `ordinal` in `dir`. */
export function sealFile(dir: string, ordinal: number): string {
  return join(dir, `${String(ordinal).padStart(8, "0")}.seal`);
}

/** A slot: the seal line padded with spaces to `size - 1` bytes, then a newline. */
function slot(line: string, size: number): string {
  const bytes = Buffer.byteLength(line, "utf8");
  if (bytes >= size) throw new Error(`seal of ${bytes} bytes does not fit its ${size}-byte slot`);
  return `${line}${" ".repeat(size - 1 - bytes)}\n`;
}

/**
 * Seal `ordinal` of `dir`, from its file or its bucket: only an authentic one. The writer decides
 * from seals (which sessions had finished, how the previous one stood), and anyone who can write
 * the seal folder without the key could otherwise steer those decisions with a forged line.
 */
function readSeal(dir: string, ordinal: number, buckets: readonly SealBucket[], key: MacKey): Seal | undefined {
  try {
    const parsed = parseSealFile(readBoundedText(sealFile(dir, ordinal), MAX_SEAL_FILE_BYTES), key);
    return parsed.ok && parsed.authentic === true ? parsed.seal : undefined;
  } catch {
    // Folded into its bucket since the folder was listed (another session compacted it).
    return sealFromBuckets(dir, buckets, ordinal, key);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A session that can write nothing more: closed, or its process (on this machine) is gone. */
function finished(seal: Seal | undefined, host: string): boolean {
  if (!seal) return false;
  return seal.closed || (seal.host === host && !alive(seal.pid));
}

/**
 * The seal of one session: a number allocated among its log's sessions, then the seal rewritten
 * after each committed turn.
 * Contract: `open` allocates the lowest free number above every existing one by linking a
 * complete first seal into place (link fails if the name exists, so two processes never share a
 * number, and no reader sees a half-written file). A seal file holds two fixed-size slots; each
 * update overwrites the older slot in place with one `pwrite` and a higher `gen`, so a reader (or
 * a crash at any instant) always finds a whole MAC-ed seal: the new one or the one before.
 * (Replacing a file by rename costs a forced writeback per update on ext4; one pwrite does not.)
 * Every method throws on I/O errors; the caller fails closed.
 */
export class SealWriter {
  readonly dir: string;
  readonly session: string;
  readonly ordinal: number;
  readonly settled: number;
  /**
   * The previous session's authentic seal as this one started (its number, records, last MAC,
   * whether it had closed): `session_start` records it, so verify knows how that session had ended
   * even if its own seal is later rolled back.
   */
  readonly previous: PreviousSession | undefined;
  readonly #key: MacKey;
  readonly #base: Omit<SealFields, "count" | "head" | "closed" | "gen">;
  readonly #slotSize: number;
  #fd: number | undefined;
  readonly #identity: FileIdentity;
  #gen = 0;

  private constructor(options: {
    dir: string;
    key: MacKey;
    base: Omit<SealFields, "count" | "head" | "closed" | "gen">;
    slotSize: number;
    previous: PreviousSession | undefined;
  }) {
    this.previous = options.previous;
    this.dir = options.dir;
    this.#key = options.key;
    this.#base = options.base;
    this.#slotSize = options.slotSize;
    this.session = options.base.session;
    this.ordinal = options.base.ordinal;
    this.settled = options.base.settled;
    this.#fd = openSync(sealFile(this.dir, this.ordinal), constants.O_WRONLY | constants.O_NOFOLLOW);
    const stat = fstatSync(this.#fd);
    this.#identity = { dev: stat.dev, ino: stat.ino };
  }

  /** Allocates the session's number and writes its first seal (no records yet, open). */
  static open(options: {
    dir: string;
    key: MacKey;
    keyId: string;
    log: string;
    session: string;
    /** Sessions per bucket of folded seals (default `SEALS_PER_BUCKET`). */
    perBucket?: number;
  }): SealWriter {
    const host = hostname();
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const listing = listSeals(options.dir);
    let ordinal = Math.max(listing.ordinals.at(-1) ?? 0, listing.buckets.at(-1)?.last ?? 0) + 1;
    const settled = settledBelow(options.dir, ordinal, host, listing.buckets, options.key);
    for (;;) {
      const base = {
        log: options.log,
        ordinal,
        session: options.session,
        keyId: options.keyId,
        settled,
        pid: process.pid,
        host,
      };
      const first = serializeSeal({ ...base, gen: 0, count: 0, head: "0".repeat(64), closed: false }, options.key);
      // Room for the counts to grow; the path and ids do not change.
      const slotSize = Buffer.byteLength(first, "utf8") + 256;
      if (!linkNewFile(sealFile(options.dir, ordinal), `${slot(first, slotSize)}${slot("", slotSize)}`)) {
        ordinal++; // another process took the number
        continue;
      }
      const prior = ordinal > 1 ? readSeal(options.dir, ordinal - 1, listing.buckets, options.key) : undefined;
      const previous = prior && { ordinal: prior.ordinal, count: prior.count, head: prior.head, closed: prior.closed };
      const writer = new SealWriter({ dir: options.dir, key: options.key, base, slotSize, previous });
      foldFinished(options.dir, options.key, listing, settled, options.perBucket);
      return writer;
    }
  }

  /**
   * Writes the next seal: `count` records written, the last one's MAC `head`, closed or not (in
   * the kernel; `sync` puts it on disk). Returns the seal's line (without padding or newline), e.g. to ship it.
   */
  update(state: { count: number; head: string; closed: boolean }): string {
    if (this.#fd === undefined) throw new Error(`seal ${sealFile(this.dir, this.ordinal)} is closed`);
    this.#gen++;
    const line = serializeSeal({ ...this.#base, ...state, gen: this.#gen }, this.#key);
    const position = (this.#gen % 2) * this.#slotSize;
    const file = sealFile(this.dir, this.ordinal);
    const written = writeSync(this.#fd, slot(line, this.#slotSize), position, "utf8");
    if (written !== this.#slotSize) throw new Error(`seal ${file}: short write`);
    // A seal written to a file nobody can find vouches for nothing: stop instead.
    const { change } = fileChange(this.#fd, file, this.#identity);
    if (change) throw new Error(`the seal ${file} ${change} while the run was writing to it`);
    return line;
  }

  /** Fsyncs the seal file on the thread pool (after `update`); rejects on an I/O error. */
  sync(): Promise<void> {
    const fd = this.#fd;
    if (fd === undefined) return Promise.reject(new Error(`seal ${sealFile(this.dir, this.ordinal)} is closed`));
    return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /** Releases the seal file (after the last update). */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/**
 * The largest n such that every session numbered 1..n had finished: the session numbered
 * `ordinal` starts after all of their records are in the log, so verify can tell a reordered log.
 */
function settledBelow(dir: string, ordinal: number, host: string, buckets: readonly SealBucket[], key: MacKey): number {
  let settled = 0;
  const previous = readSeal(dir, ordinal - 1, buckets, key);
  // What held when the previous session started still holds: its finished prefix is ours too.
  if (previous) settled = Math.min(previous.settled, ordinal - 2);
  let reads = 0;
  for (let n = settled + 1; n < ordinal && reads < MAX_SETTLE_READS; n++, reads++) {
    if (!finished(n === ordinal - 1 ? previous : readSeal(dir, n, buckets, key), host)) break;
    settled = n;
  }
  return settled;
}

/**
 * Folds the seals of finished sessions into buckets (see `compactSeals`). Housekeeping: a failure
 * leaves every seal where it was, readable, so it never stops the session that tried.
 */
function foldFinished(
  dir: string,
  key: MacKey,
  listing: ReturnType<typeof listSeals>,
  settled: number,
  perBucket: number | undefined,
): void {
  try {
    compactSeals({ dir, key, listing, settled, ...(perBucket !== undefined ? { perBucket } : {}) });
  } catch {
    // Tried again by the next session that starts.
  }
}
