import { MAX_SEAL_FILE_BYTES, readBoundedText } from "./read-bounded.ts";
import type { MacKey } from "./record.ts";
import { type ParsedSeal, parseSealFile } from "./seal.ts";
import { listSeals, readBucket } from "./seal-buckets.ts";
import { sealFile } from "./seal-store.ts";

/** One seal as verify reads it: from its own file, or from a line of a bucket file. */
export interface SealEntry {
  ordinal: number;
  file: string;
  parsed: ParsedSeal;
}

/**
 * Every seal in `dir`, by number, each parsed and (with `key`) authenticated: the seal files, and
 * the seals folded into bucket files for numbers that have no seal file of their own.
 * Contract: a missing folder is no seals; a seal file that cannot be read is an entry with
 * `ok: false`, and so is a bucket file (under its range's first number); throws only when the
 * folder exists but cannot be listed.
 */
export function readSeals(dir: string, key: MacKey | undefined): SealEntry[] {
  const listing = listSeals(dir);
  const entries: SealEntry[] = listing.ordinals.map((ordinal) => {
    const file = sealFile(dir, ordinal);
    let parsed: ParsedSeal;
    try {
      parsed = parseSealFile(readBoundedText(file, MAX_SEAL_FILE_BYTES), key);
    } catch (error) {
      parsed = { ok: false, error: `cannot be read (${(error as Error).message})` };
    }
    return { ordinal, file, parsed };
  });
  const own = new Set(listing.ordinals);
  for (const bucket of listing.buckets) {
    try {
      // A seal file of the same number wins: it is what a bucket's writer had not removed yet.
      for (const entry of readBucket(dir, bucket, key)) if (!own.has(entry.ordinal)) entries.push(entry);
    } catch (error) {
      const file = `${dir}/${bucket.name}`;
      entries.push({
        ordinal: bucket.first,
        file,
        parsed: { ok: false, error: `cannot be read (${(error as Error).message})` },
      });
    }
  }
  return entries.sort((a, b) => a.ordinal - b.ordinal);
}
