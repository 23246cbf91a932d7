import { readFileSync } from "node:fs";
import type { MacKey } from "./record.ts";
import { type ParsedSeal, parseSealFile } from "./seal.ts";
import { sealFile, sealOrdinals } from "./seal-store.ts";

/** One seal file as verify reads it. */
export interface SealEntry {
  ordinal: number;
  file: string;
  parsed: ParsedSeal;
}

/**
 * Every seal in `dir`, by number, each parsed and (with `key`) authenticated.
 * Contract: a missing folder is no seals; a seal file that cannot be read is an entry with
 * `ok: false`; throws only when the folder exists but cannot be listed.
 */
export function readSeals(dir: string, key: MacKey | undefined): SealEntry[] {
  return sealOrdinals(dir).map((ordinal) => {
    const file = sealFile(dir, ordinal);
    let parsed: ParsedSeal;
    try {
      parsed = parseSealFile(readFileSync(file, "utf8"), key);
    } catch (error) {
      parsed = { ok: false, error: `cannot be read (${(error as Error).message})` };
    }
    return { ordinal, file, parsed };
  });
}
