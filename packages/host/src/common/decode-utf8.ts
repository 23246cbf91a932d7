/** Strictly decoded text, or the first line (1-based) that holds bytes which are not UTF-8. */
export type Utf8Text = { ok: true; text: string } | { ok: false; line: number };

/**
 * Decodes `bytes` as UTF-8 without replacing anything: a hand-written file that is not UTF-8
 * (Latin-1, UTF-16) would otherwise be read with U+FFFD in place of its bytes, so a value such
 * as a deny glob `café/**` silently becomes one that matches nothing. A leading BOM is kept.
 * Contract: never throws; the line is found only when decoding fails.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Text {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    let line = 1;
    for (let start = 0; start <= bytes.length; line++) {
      const end = bytes.indexOf(0x0a, start);
      const stop = end < 0 ? bytes.length : end;
      try {
        decoder.decode(bytes.subarray(start, stop));
      } catch {
        break;
      }
      start = stop + 1;
    }
    return { ok: false, line };
  }
}
