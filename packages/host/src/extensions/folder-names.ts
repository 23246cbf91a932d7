import { readdirSync } from "node:fs";
import { decodeUtf8 } from "../common/decode-utf8.ts";

/** The entries of a drop-in folder: names Node can open, and names it cannot (not UTF-8). */
export interface FolderNames {
  /** Sorted. */
  names: string[];
  /** Names whose bytes are not UTF-8, each byte that is not written as `\xNN`, sorted. */
  notUtf8: string[];
}

/**
 * Lists a folder by the bytes of its names. Node decodes a name that is not UTF-8 with U+FFFD in
 * place of its bytes, and that spelling names no file: a drop-in guard called so was skipped as
 * if the folder did not hold it. Hidden names (a leading dot) are left out of `notUtf8`, as the
 * scan skips them anyway.
 * Contract: throws what `readdirSync` throws (the caller reports an unreadable folder).
 */
export function folderNames(dir: string): FolderNames {
  const names: string[] = [];
  const notUtf8: string[] = [];
  for (const raw of readdirSync(dir, { encoding: "buffer" })) {
    const decoded = decodeUtf8(raw);
    if (decoded.ok) names.push(decoded.text);
    else if (raw[0] !== 0x2e) notUtf8.push(escaped(raw));
  }
  return { names: names.sort(), notUtf8: notUtf8.sort() };
}

/** `g\xff.ts`: printable ASCII as it is, every other byte as `\xNN`. */
function escaped(raw: Buffer): string {
  let out = "";
  for (const byte of raw)
    out += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`;
  return out;
}
