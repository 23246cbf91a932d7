/**
 * The first reversed range (`z-a`) in a bracket class of a minimatch glob, as written; undefined
 * when there is none. minimatch drops such a range without a word (`[z-a]` matches nothing at all),
 * so a deny written with one would protect less than it says.
 * Contract: follows minimatch's class syntax: `\` escapes the next character inside and outside
 * classes; a class opens at `[`, may start with `!` or `^`, takes a leading `]` literally, skips
 * POSIX classes (`[:alpha:]`), and ends at the next `]`; a `[` never closed is a literal; a `-`
 * next to `]` is literal. Ranges compare code points.
 */
export function reversedGlobRange(pattern: string): string | undefined {
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === "\\") i++;
    else if (chars[i] === "[") {
      const found = scanClass(chars, i);
      if (found.reversed !== undefined) return found.reversed;
      if (found.end !== undefined) i = found.end;
    }
  }
  return undefined;
}

/** Reads the class opening at `open`: where it ends (undefined when never closed) and its first reversed range. */
function scanClass(chars: string[], open: number): { end?: number; reversed?: string } {
  let i = open + 1;
  if (chars[i] === "!" || chars[i] === "^") i++;
  let first = true;
  let reversed: string | undefined;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === "]" && !first) return reversed === undefined ? { end: i } : { end: i, reversed };
    first = false;
    if (c === "[" && chars[i + 1] === ":") {
      const close = chars.indexOf(":", i + 2);
      if (close !== -1 && chars[close + 1] === "]") {
        i = close + 2;
        continue;
      }
    }
    let from = c;
    let width = 1;
    if (c === "\\") {
      from = chars[i + 1] ?? "";
      width = 2;
    }
    const next = i + width;
    if (chars[next] === "-" && chars[next + 1] !== undefined && chars[next + 1] !== "]") {
      const escaped = chars[next + 1] === "\\";
      const to = (escaped ? chars[next + 2] : chars[next + 1]) ?? "";
      if (from !== "" && to !== "" && reversed === undefined && from.codePointAt(0)! > to.codePointAt(0)!) {
        reversed = `${from}-${to}`;
      }
      i = next + (escaped ? 3 : 2);
      continue;
    }
    i = next;
  }
  return {};
}
