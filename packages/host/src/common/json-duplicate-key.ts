/** A key written twice in one object, and where its second occurrence starts. */
export interface DuplicateKey {
  key: string;
  offset: number;
}

const SIGNIFICANT = /["{}[\],:]/g;

/**
 * The first key that appears twice in one object of valid JSON text. `JSON.parse` keeps the last
 * of them silently: in a settings file, `"denyWrite": [...]` followed by `"denyWrite": []` would
 * drop a policy without a word.
 * Contract: `text` must be valid JSON (what `JSON.parse` accepted); one pass, no recursion.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  /** One entry per open container: the keys seen so far (objects) or null (arrays). */
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  SIGNIFICANT.lastIndex = 0;
  for (let match = SIGNIFICANT.exec(text); match !== null; match = SIGNIFICANT.exec(text)) {
    const at = match.index;
    switch (match[0]) {
      case '"': {
        const end = stringEnd(text, at);
        const keys = open[open.length - 1];
        if (expectKey && keys) {
          const raw = text.slice(at, end);
          const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
          if (keys.has(key)) return { key, offset: at };
          keys.add(key);
        }
        expectKey = false;
        SIGNIFICANT.lastIndex = end;
        break;
      }
      case "{":
        open.push(new Set());
        expectKey = true;
        break;
      case "[":
        open.push(null);
        expectKey = false;
        break;
      case "}":
      case "]":
        open.pop();
        expectKey = false;
        break;
      case ",":
        expectKey = open[open.length - 1] instanceof Set;
        break;
      default:
        expectKey = false;
    }
  }
  return undefined;
}

/** The offset just after the string that starts at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; text[j] === "\\"; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}
