import { closeSync, constants, fsyncSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { linkNewFile } from "./link-new-file.ts";
import { MAX_BUCKET_FILE_BYTES, MAX_SEAL_FILE_BYTES, readBoundedText } from "./read-bounded.ts";
import type { MacKey } from "./record.ts";
import { removeFile } from "./remove-file.ts";
import { chooseSeal, type OtherSealLine, type ParsedSeal, parseSeal, readSealSlots, type Seal } from "./seal.ts";

/**
 * Sessions per bucket: once every session numbered in a bucket's range has finished, their seals
 * are folded into one file. An agent hook opens a session per call, so without this its seal folder
 * gained a 4 KiB file per call and every session start listed them all (17 ms at 10,000 seals).
 */
export const SEALS_PER_BUCKET = 256;

// Numbers are padded to 8 digits and grow past them (a seal planted at 99999999 pushes the next one to 9).
const SEAL_NAME = /^(\d{8,15})\.seal$/;
const BUCKET_NAME = /^(\d{8,15})-(\d{8,15})\.seals$/;

/** A bucket file: the final seal of each session numbered `first`..`last`, one line each. */
export interface SealBucket {
  first: number;
  last: number;
  name: string;
}

/** What a seal folder holds: the numbers of its seal files, and its buckets, both ascending. */
export interface SealListing {
  ordinals: number[];
  buckets: SealBucket[];
}

const pad = (n: number) => String(n).padStart(8, "0");

/** The file name of the bucket holding sessions `first`..`last`. */
export function bucketName(first: number, last: number): string {
  return `${pad(first)}-${pad(last)}.seals`;
}

/** Lists a seal folder in one `readdir`; empty when the folder does not exist. */
export function listSeals(dir: string): SealListing {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ordinals: [], buckets: [] };
    throw error;
  }
  const ordinals: number[] = [];
  const buckets: SealBucket[] = [];
  for (const name of names) {
    const seal = SEAL_NAME.exec(name);
    if (seal?.[1]) {
      ordinals.push(Number(seal[1]));
      continue;
    }
    const bucket = BUCKET_NAME.exec(name);
    if (bucket?.[1] && bucket[2]) buckets.push({ first: Number(bucket[1]), last: Number(bucket[2]), name });
  }
  ordinals.sort((a, b) => a - b);
  buckets.sort((a, b) => a.first - b.first);
  return { ordinals, buckets };
}

/** One line of a bucket file, parsed, with the number it answers for. */
export interface BucketSeal {
  /** The session number the line is taken for: its own, or the bucket's first when it lies outside. */
  ordinal: number;
  /** `<bucket file>:<line>`, for reports. */
  file: string;
  parsed: ParsedSeal;
  /** Every other line for the same number: a bucket holds one per session, so verify reports them. */
  others?: OtherSealLine[];
}

/**
 * The seals of a bucket file, one per session number: the authentic (or, without a key,
 * well-formed) line with the highest `gen`, as in a seal file's two slots; any other line for the
 * same number comes with it in `others` (a fold writes one line per session: a second one was
 * added). A line that is not a seal answers for no session (ordinal -1); one whose number lies
 * outside the bucket's range answers for the range's first number, so verify reports it as moved.
 * Contract: throws only when the file cannot be read.
 */
export function readBucket(dir: string, bucket: SealBucket, key: MacKey | undefined): BucketSeal[] {
  const path = join(dir, bucket.name);
  const lines = readBoundedText(path, MAX_BUCKET_FILE_BYTES).split("\n");
  const found: BucketSeal[] = [];
  const byOrdinal = new Map<number, (BucketSeal & { line: string })[]>();
  lines.forEach((text, index) => {
    const line = text.trim();
    if (line === "") return;
    const parsed = parseSeal(line, key);
    const file = `${path}:${index + 1}`;
    if (!parsed.ok) found.push({ ordinal: -1, file, parsed });
    else if (parsed.seal.ordinal < bucket.first || parsed.seal.ordinal > bucket.last) {
      found.push({ ordinal: bucket.first, file, parsed });
    } else {
      const group = byOrdinal.get(parsed.seal.ordinal) ?? [];
      group.push({ ordinal: parsed.seal.ordinal, file, parsed, line });
      byOrdinal.set(parsed.seal.ordinal, group);
    }
  });
  for (const group of byOrdinal.values()) {
    const chosen = chooseSeal(group);
    if (!chosen) continue;
    const others = group
      .filter((line) => line !== chosen)
      .map((line) => ({ where: line.file, parsed: line.parsed, extra: true }));
    found.push({
      ordinal: chosen.ordinal,
      file: chosen.file,
      parsed: chosen.parsed,
      ...(others.length ? { others } : {}),
    });
  }
  return found.sort((a, b) => a.ordinal - b.ordinal);
}

/** The authentic seal of session `ordinal` from the bucket that covers it, if there is one (never throws). */
export function sealFromBuckets(
  dir: string,
  buckets: readonly SealBucket[],
  ordinal: number,
  key: MacKey,
): Seal | undefined {
  const bucket = buckets.find((b) => ordinal >= b.first && ordinal <= b.last);
  if (!bucket) return undefined;
  try {
    const found = readBucket(dir, bucket, key).find((s) => s.ordinal === ordinal);
    return found?.parsed.ok && found.parsed.authentic === true ? found.parsed.seal : undefined;
  } catch {
    return undefined;
  }
}

function syncDir(dir: string): void {
  // Windows cannot open a folder as a file (nor fsync one); NTFS journals its entries itself.
  if (process.platform === "win32") return;
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Folds the seal files of every bucket whose sessions have all finished (numbers up to `settled`)
 * into that bucket's file, then removes the seal files it holds.
 * Contract: only authentic seals (under `key`) numbered as their file is, in a file holding nothing
 * else (no forged, foreign or added line), are folded, so a forged or renamed seal file stays where
 * verify reports it; the bucket file is written whole, fsynced and
 * linked into place (never replaced: a bucket another process wrote first is kept, and only seal
 * files whose exact line it holds are removed), and the folder is fsynced before any seal file is
 * removed. Throws on I/O errors; a failure leaves every seal readable where it was.
 */
export function compactSeals(options: {
  dir: string;
  key: MacKey;
  listing: SealListing;
  settled: number;
  perBucket?: number;
}): void {
  const { dir, key, listing } = options;
  const size = options.perBucket ?? SEALS_PER_BUCKET;
  // Only the seal files of full buckets below `settled`, grouped by bucket (the folder's listing is
  // sorted): the buckets already folded cost nothing here.
  const end = Math.floor(options.settled / size) * size;
  const groups = new Map<number, number[]>();
  for (const ordinal of listing.ordinals) {
    if (ordinal > end) break;
    if (ordinal < 1) continue;
    const index = Math.floor((ordinal - 1) / size);
    const group = groups.get(index);
    if (group) group.push(ordinal);
    else groups.set(index, [ordinal]);
  }
  for (const [index, ordinals] of groups) {
    const first = index * size + 1;
    const last = (index + 1) * size;
    compactBucket(dir, key, { first, last, name: bucketName(first, last) }, ordinals);
  }
}

function compactBucket(dir: string, key: MacKey, bucket: SealBucket, ordinals: readonly number[]): void {
  const folded: { ordinal: number; line: string }[] = [];
  for (const ordinal of ordinals) {
    let text: string;
    try {
      text = readBoundedText(join(dir, `${pad(ordinal)}.seal`), MAX_SEAL_FILE_BYTES);
    } catch {
      continue;
    }
    const { chosen, others } = readSealSlots(text, key);
    if (!chosen?.parsed.ok || chosen.parsed.authentic !== true || chosen.parsed.seal.ordinal !== ordinal) continue;
    // A seal file with any other line that is not an older seal of the same session (a forged or
    // added line) stays where it is: folding would keep only the good line and erase the evidence.
    const session = chosen.parsed.seal.session;
    const clean = others.every(
      (o) => !o.extra && o.parsed.ok && o.parsed.authentic === true && o.parsed.seal.session === session,
    );
    if (!clean) continue;
    folded.push({ ordinal, line: chosen.line });
  }
  if (folded.length === 0) return;
  const written = linkNewFile(join(dir, bucket.name), `${folded.map((f) => f.line).join("\n")}\n`, { sync: true });
  const held = written
    ? undefined
    : new Set(
        readBoundedText(join(dir, bucket.name), MAX_BUCKET_FILE_BYTES)
          .split("\n")
          .map((line) => line.trim()),
      );
  syncDir(dir);
  for (const { ordinal, line } of folded) {
    if (held && !held.has(line)) continue;
    removeFile(join(dir, `${pad(ordinal)}.seal`));
  }
}
