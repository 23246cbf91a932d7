/** Matches what changes the nesting depth of JSON text, and the quote that starts a string. */
const STRUCTURE = /[[\]{}"]/g;

/**
 * Finds the first array or object of valid JSON `text` nested deeper than `maxDepth` levels.
 * Contract: returns the offset of its opening bracket (the top-level value is level 1), or
 * `undefined` when no value is that deep; brackets inside strings do not count. Iterative, so
 * text of any depth is scanned without recursion. `text` must be valid JSON (parse it first).
 */
export function findExcessNesting(text: string, maxDepth: number): number | undefined {
  let depth = 0;
  STRUCTURE.lastIndex = 0;
  for (;;) {
    const match = STRUCTURE.exec(text);
    if (match === null) return undefined;
    const ch = match[0];
    if (ch === '"') STRUCTURE.lastIndex = stringEnd(text, match.index);
    else if (ch === "[" || ch === "{") {
      if (++depth > maxDepth) return match.index;
    } else depth--;
  }
}

/** The offset just after the (valid) string starting at `at`. */
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
