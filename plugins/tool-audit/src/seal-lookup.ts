import { MAX_SEAL_FILE_BYTES, readBoundedText } from "./read-bounded.ts";
import type { MacKey } from "./record.ts";
import { parseSealFile, type Seal } from "./seal.ts";
import { listSeals, type SealBucket, sealFromBuckets } from "./seal-buckets.ts";
import { sealFile } from "./seal-file.ts";

function freshBuckets(dir: string): SealBucket[] {
  try {
    return listSeals(dir).buckets;
  } catch {
    return [];
  }
}

/**
 * Seal `ordinal` of `dir`, from its file or its bucket: only an authentic one. The writer decides
 * from seals (which sessions had finished, how the previous one stood), and anyone who can write
 * the seal folder without the key could otherwise steer those decisions with a forged line.
 */
export function readSeal(dir: string, ordinal: number, buckets: readonly SealBucket[], key: MacKey): Seal | undefined {
  try {
    const parsed = parseSealFile(readBoundedText(sealFile(dir, ordinal), MAX_SEAL_FILE_BYTES), key);
    return parsed.ok && parsed.authentic === true ? parsed.seal : undefined;
  } catch {
    // Folded into its bucket since the folder was listed (another session compacted it): that
    // bucket may be newer than the listing, so a miss lists the folder again.
    return sealFromBuckets(dir, buckets, ordinal, key) ?? sealFromBuckets(dir, freshBuckets(dir), ordinal, key);
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
export function finished(seal: Seal | undefined, host: string): boolean {
  if (!seal) return false;
  return seal.closed || (seal.host === host && !alive(seal.pid));
}
