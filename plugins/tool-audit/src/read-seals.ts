import { MAX_SEAL_FILE_BYTES, readBoundedText } from "./read-bounded.ts";
import type { MacKey } from "./record.ts";
import { type OtherSealLine, type ParsedSeal, readSealSlots } from "./seal.ts";
import { listSeals, readBucket } from "./seal-buckets.ts";
import { sealFile } from "./seal-store.ts";

/** One seal as verify reads it: from its own file, or from a line of a bucket file. */
export interface SealEntry {
  ordinal: number;
  file: string;
  parsed: ParsedSeal;
  /**
   * The other lines written for the same number: a seal file's other slot and anything beyond
   * its two slots, a bucket's second line for one session. Verify reports each one that is not an
   * older seal of the same session (see `strayProblem`).
   */
  others?: OtherSealLine[];
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
  const entries: SealEntry[] = listing.ordinals.map((ordinal): SealEntry => {
    const file = sealFile(dir, ordinal);
    try {
      const { chosen, others } = readSealSlots(readBoundedText(file, MAX_SEAL_FILE_BYTES), key);
      const parsed: ParsedSeal = chosen?.parsed ?? { ok: false, error: "empty" };
      const located = others.map((o) => ({ ...o, where: `${file}:${o.where.replace(/^line /, "")}` }));
      return { ordinal, file, parsed, ...(located.length ? { others: located } : {}) };
    } catch (error) {
      return { ordinal, file, parsed: { ok: false, error: `cannot be read (${(error as Error).message})` } };
    }
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

/**
 * Why a line found beside the seal that counts must be reported, if it must: a line that is not a
 * seal, does not verify with the key (forged: a writer without the key added it), lies beyond a
 * seal file's two slots or doubles a session in a bucket, or seals another session or number.
 * An older authentic seal of the same session in the other slot is what every update leaves.
 */
export function strayProblem(entry: SealEntry, other: OtherSealLine): string | undefined {
  const { parsed } = other;
  // A slot whose bytes are not even JSON is what a power loss in the middle of its one `pwrite`
  // leaves: the other slot counts, as when the slot is blank. Someone without the key gains
  // nothing by writing one (no writer or check takes a line that does not verify); a well-formed
  // line that does not verify is still reported.
  if (!parsed.ok && !other.extra && parsed.error.startsWith("not JSON")) return undefined;
  if (!parsed.ok) return `${other.where} is not a seal (${parsed.error})`;
  if (parsed.authentic === false) return `${other.where} does not verify with the key: a forged seal line`;
  if (other.extra)
    return `${other.where} is a seal line a writer never puts there (beyond the two slots, or a second line for session #${parsed.seal.ordinal})`;
  const chosen = entry.parsed.ok ? entry.parsed.seal : undefined;
  if (chosen && (parsed.seal.session !== chosen.session || parsed.seal.ordinal !== chosen.ordinal)) {
    return `${other.where} seals session #${parsed.seal.ordinal} (${parsed.seal.session.slice(0, 8)}), not the one its file holds`;
  }
  return undefined;
}
