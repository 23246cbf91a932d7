/**
 * A small line diff for the results of `write` and `edit`, so a viewer can show what changed:
 * unified-diff hunks with two lines of context, bounded in size whatever the files are.
 */

/** What changed in a file, as `details.diff` of `write` (an existing file) and `edit`. */
export interface LineDiff {
  /** Lines added and removed in all (counted over the whole change, even when hunks were cut). */
  added: number;
  removed: number;
  /** Changed regions; each line starts with " " (context), "-" (removed) or "+" (added). */
  hunks: { oldStart: number; newStart: number; lines: string[] }[];
  /** Set when the hunks were cut to `MAX_DIFF_LINES` lines, or long lines shortened. */
  truncated?: true;
}

/** Files larger than this get no diff (the result says only that they were written). */
export const MAX_DIFF_BYTES = 1024 * 1024;
/** Lines of hunks kept. */
const MAX_DIFF_LINES = 200;
/** Characters kept of one line. */
const MAX_LINE = 400;
/** Unchanged lines shown around a change. */
const CONTEXT = 2;
/** Above this many cells the middle is shown as replaced whole instead of aligned line by line. */
const MAX_CELLS = 2_000_000;

type Op = { kind: " " | "-" | "+"; text: string };

function lines(text: string): string[] {
  const all = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  return text === "" ? [] : all;
}

/** The edit script of the middle: a longest common subsequence table when small enough. */
function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS || n >= 0xffff || m >= 0xffff) {
    return [...a.map((text): Op => ({ kind: "-", text })), ...b.map((text): Op => ({ kind: "+", text }))];
  }
  // lcs[i * (m + 1) + j]: length of the LCS of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: " ", text: a[i] as string });
      i++;
      j++;
    } else if (i < n && (j === m || (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))) {
      ops.push({ kind: "-", text: a[i++] as string }); // removals before additions, as in a unified diff
    } else ops.push({ kind: "+", text: b[j++] as string });
  }
  return ops;
}

/**
 * The diff between two texts, or undefined when there is none to show (identical texts).
 * Contract: pure; cost bounded (common ends trimmed first, at most `MAX_CELLS` cells aligned);
 * at most 200 hunk lines of at most 400 characters each are kept (`truncated` says so), while
 * `added` and `removed` always count every changed line.
 */
export function lineDiff(before: string, after: string): LineDiff | undefined {
  if (before === after) return undefined;
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const context = (from: readonly string[], at: number, count: number): Op[] =>
    from.slice(Math.max(0, at), at + count).map((text): Op => ({ kind: " ", text }));
  const lead = Math.min(CONTEXT, start);
  const ops: Op[] = [
    ...context(a, start - lead, lead),
    ...middleOps(a.slice(start, a.length - end), b.slice(start, b.length - end)),
    ...context(a, a.length - end, Math.min(CONTEXT, end)),
  ];
  const diff: LineDiff = { added: 0, removed: 0, hunks: [] };
  let oldLine = start - lead + 1;
  let newLine = start - lead + 1;
  let kept = 0;
  let hunk: LineDiff["hunks"][number] | undefined;
  let quiet = 0; // context lines since the last change
  for (const [index, op] of ops.entries()) {
    if (op.kind === "+") diff.added++;
    if (op.kind === "-") diff.removed++;
    const upcoming = ops.slice(index + 1, index + 1 + CONTEXT).some((o) => o.kind !== " ");
    const show = op.kind !== " " || quiet < CONTEXT || upcoming;
    if (op.kind === " ") quiet++;
    else quiet = 0;
    if (!show) hunk = undefined;
    else if (kept >= MAX_DIFF_LINES) diff.truncated = true;
    else {
      if (!hunk) {
        hunk = { oldStart: oldLine, newStart: newLine, lines: [] };
        diff.hunks.push(hunk);
      }
      const text = op.text.length > MAX_LINE ? `${op.text.slice(0, MAX_LINE)}…` : op.text;
      if (text !== op.text) diff.truncated = true;
      hunk.lines.push(`${op.kind}${text}`);
      kept++;
    }
    if (op.kind !== "+") oldLine++;
    if (op.kind !== "-") newLine++;
  }
  return diff.added + diff.removed === 0 ? undefined : diff;
}
