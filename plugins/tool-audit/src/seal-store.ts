import { closeSync, constants, fstatSync, fsync, mkdirSync, openSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { linkNewFile } from "./link-new-file.ts";
import { type FileIdentity, fileChange } from "./log-file.ts";
import { logIdOf } from "./log-id.ts";
import type { MacKey } from "./record.ts";
import { type Seal, type SealFields, serializeSeal } from "./seal.ts";
import { compactSeals, listSeals, type SealBucket } from "./seal-buckets.ts";
import { sealFile } from "./seal-file.ts";
import { finished, readSeal } from "./seal-lookup.ts";
import { inRanges, type SessionClaim, vouchFinished } from "./seal-vouch.ts";

export { sealFile } from "./seal-file.ts";

/** What a session knew of the one numbered before it when it started (see `SealWriter.previous`). */
export type PreviousSession = SessionClaim;

/** The most seals read to work out `settled` when a session starts (the rest count as unfinished). */
const MAX_SETTLE_READS = 256;

/** A slot: the seal line padded with spaces to `size - 1` bytes, then a newline. */
function slot(line: string, size: number): string {
  const bytes = Buffer.byteLength(line, "utf8");
  if (bytes >= size) throw new Error(`seal of ${bytes} bytes does not fit its ${size}-byte slot`);
  return `${line}${" ".repeat(size - 1 - bytes)}\n`;
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
  /**
   * The final seals of the other earlier sessions that finished since the previous one started
   * (see `vouchFinished`): `session_start` records them too.
   */
  readonly finished: SessionClaim[];
  /** The log's random id (see `logIdOf`). */
  readonly logId: string;
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
    finished: SessionClaim[];
  }) {
    this.previous = options.previous;
    this.finished = options.finished;
    this.logId = options.base.logId ?? "";
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
    const logId = logIdOf(options.dir);
    const listing = listSeals(options.dir);
    let ordinal = Math.max(listing.ordinals.at(-1) ?? 0, listing.buckets.at(-1)?.last ?? 0) + 1;
    for (;;) {
      // What this session vouches for is read before its number is taken, and again if another
      // process took the number first: every claim is about sessions numbered below its own.
      const { key, dir } = options;
      const prior = ordinal > 1 ? readSeal(dir, ordinal - 1, listing.buckets, key) : undefined;
      const settled = settledBelow(dir, ordinal, host, listing.buckets, key, prior);
      const vouched = vouchFinished({ dir, ordinal, prior, settled, host, buckets: listing.buckets, key });
      const base = {
        log: options.log,
        ordinal,
        session: options.session,
        keyId: options.keyId,
        settled,
        pid: process.pid,
        host,
        logId,
        ...(vouched.seen.length > 0 ? { seen: vouched.seen } : {}),
      };
      const first = serializeSeal({ ...base, gen: 0, count: 0, head: "0".repeat(64), closed: false }, key);
      // Room for the counts to grow; the path and ids do not change.
      const slotSize = Buffer.byteLength(first, "utf8") + 256;
      if (!linkNewFile(sealFile(dir, ordinal), `${slot(first, slotSize)}${slot("", slotSize)}`)) {
        ordinal++; // another process took the number
        continue;
      }
      const previous = prior && { ordinal: prior.ordinal, count: prior.count, head: prior.head, closed: prior.closed };
      const writer = new SealWriter({ dir, key, base, slotSize, previous, finished: vouched.finished });
      foldFinished(dir, key, listing, settled, options.perBucket);
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
function settledBelow(
  dir: string,
  ordinal: number,
  host: string,
  buckets: readonly SealBucket[],
  key: MacKey,
  previous: Seal | undefined,
): number {
  let settled = 0;
  // What held when the previous session started still holds: its finished prefix is ours too, and
  // so are the sessions above it that it saw finished.
  if (previous) settled = Math.min(previous.settled, ordinal - 2);
  const seen = previous?.seen ?? [];
  let reads = 0;
  for (let n = settled + 1; n < ordinal && reads < MAX_SETTLE_READS; n++) {
    if (n < ordinal - 1 && inRanges(n, seen)) {
      settled = n;
      continue;
    }
    reads++;
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
