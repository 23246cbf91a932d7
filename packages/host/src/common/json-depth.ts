/** The deepest nesting of arrays and objects Gatehouse accepts in a JSON document it reads (as partial-json.ts). */
export const MAX_JSON_DEPTH = 256;

/**
 * Where `text` (JSON) first nests arrays and objects deeper than `max`: the UTF-16 offset of the
 * bracket that goes one level too deep, or undefined when it stays within `max`.
 * Contract: linear and iterative (any depth is safe to scan); brackets inside strings do not count;
 * text that is not JSON is scanned the same way and never throws.
 */
export function findTooDeep(text: string, max = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}
