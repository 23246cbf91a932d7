import { type Stats, unwatchFile, watchFile } from "node:fs";
import { stat } from "node:fs/promises";
import { type RawLine, readLines } from "./read-lines.ts";
import { type AuditEntry, toEntry } from "./read-records.ts";

/** Options of `tailAudit`. */
export interface TailOptions {
  /** How many of the last lines to emit first; default 10. */
  lines?: number;
  /** Keep emitting lines as they are appended, until `signal` aborts. */
  follow?: boolean;
  signal?: AbortSignal;
  /** Receives each line in order: a record, or why the line is not one. */
  onRecord: (entry: AuditEntry) => void;
  /** How often a followed file is polled, in ms; default 100. */
  pollMs?: number;
  /** Called once the last lines are out and the file is being watched (e.g. to print a marker). */
  onFollow?: () => void;
}

/** What a tail emitted. */
export interface TailResult {
  file: string;
  emitted: number;
  /** The file did not exist when the tail started (with `follow`, it may have appeared since). */
  missing: boolean;
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/**
 * Emits the last `lines` lines of an audit file and, with `follow`, every line appended later.
 * Contract: a followed file that does not exist yet is waited for; a partly written last line is
 * held back until its newline arrives (without `follow` it is emitted as a torn line); resolves
 * when done, or when `signal` aborts while following. The first read scans the whole file once
 * (streamed) so that line numbers are exact.
 */
export async function tailAudit(file: string, options: TailOptions): Promise<TailResult> {
  const want = Math.max(0, options.lines ?? 10);
  const follow = options.follow === true;
  const result: TailResult = { file, emitted: 0, missing: false };
  let offset = 0;
  let nextLine = 1;
  let stopped = options.signal?.aborted === true;
  const emit = (raw: RawLine) => {
    result.emitted++;
    options.onRecord(toEntry(raw));
  };
  const consume = (raw: RawLine): boolean => {
    if (!raw.terminated && follow) return false;
    offset = raw.end;
    nextLine = raw.line + 1;
    return true;
  };

  const size = await sizeOf(file);
  if (size === undefined) result.missing = true;
  else {
    const last: RawLine[] = [];
    for await (const raw of readLines(file, { end: size })) {
      if (!consume(raw)) break;
      if (want === 0) continue;
      if (last.length === want) last.shift();
      last.push(raw);
    }
    for (const raw of last) emit(raw);
  }
  if (!follow || stopped) return result;

  let busy = false;
  let again = false;
  const pump = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const now = await sizeOf(file);
        if (now === undefined) continue;
        if (now < offset) {
          // Truncated or replaced: read it again from the start.
          offset = 0;
          nextLine = 1;
        }
        for await (const raw of readLines(file, { start: offset, end: now, firstLine: nextLine })) {
          if (stopped || !consume(raw)) break;
          emit(raw);
        }
      } while (again && !stopped);
    } catch {
      // The file vanished between stat and read: the next poll tries again.
    } finally {
      busy = false;
    }
  };

  return new Promise<TailResult>((resolve) => {
    const listener = (_curr: Stats, _prev: Stats) => void pump();
    watchFile(file, { interval: options.pollMs ?? 100, persistent: true }, listener);
    const stop = () => {
      stopped = true;
      unwatchFile(file, listener);
      resolve(result);
    };
    options.signal?.addEventListener("abort", stop, { once: true });
    if (options.signal?.aborted) return stop();
    options.onFollow?.();
    void pump(); // lines appended between the first read and the watch
  });
}
