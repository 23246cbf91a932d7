/**
 * A file change as coloured rows: `12 - old line` in red, `12 + new line` in green, context dim,
 * `⋮` between hunks. Reads `details.diff` of a result (the shape of the host's `LineDiff`), which
 * any tool may return; anything else there is ignored.
 */
import { scrubSecrets } from "@gatehouse/tool-audit";
import { type Palette, sanitize } from "./ansi.ts";

/** The parts of a diff the view uses, checked at run time (details come from any tool). */
export interface ViewDiff {
  added: number;
  removed: number;
  hunks: { oldStart: number; newStart: number; lines: string[] }[];
}

const count = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

/** The diff in `details`, or undefined when there is none of the expected shape. */
export function diffOf(details: unknown): ViewDiff | undefined {
  const diff = (details as { diff?: unknown } | null | undefined)?.diff as Partial<ViewDiff> | undefined;
  if (!diff || typeof diff !== "object" || !count(diff.added) || !count(diff.removed) || !Array.isArray(diff.hunks))
    return undefined;
  const hunks = diff.hunks.filter(
    (h) =>
      h &&
      count(h.oldStart) &&
      count(h.newStart) &&
      Array.isArray(h.lines) &&
      h.lines.every((l) => typeof l === "string"),
  );
  return { added: diff.added, removed: diff.removed, hunks };
}

/** `+3 −1`. */
export function diffStat(diff: ViewDiff): string {
  return `+${diff.added} −${diff.removed}`;
}

/**
 * At most `max` rows of `diff` (then `… +N lines`), each `number sign text`, coloured.
 * Contract: text is sanitized (no escape sequences from the file reach the terminal) and secret
 * shapes are scrubbed; tabs become two spaces.
 */
export function diffRows(diff: ViewDiff, options: { palette: Palette; max: number }): string[] {
  const p = options.palette;
  const numbered: { n: number; sign: string; text: string }[] = [];
  const separators = new Set<number>();
  for (const [h, hunk] of diff.hunks.entries()) {
    if (h > 0) separators.add(numbered.length);
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const sign = line[0] === "-" || line[0] === "+" ? line[0] : " ";
      const text = scrubSecrets(sanitize(line.slice(1)).replace(/\n/g, " ").trimEnd());
      numbered.push({ n: sign === "-" ? oldLine : newLine, sign, text });
      if (sign !== "+") oldLine++;
      if (sign !== "-") newLine++;
    }
  }
  const width = Math.max(1, ...numbered.map((r) => String(r.n).length));
  const rows: string[] = [];
  for (const [i, r] of numbered.entries()) {
    if (rows.length >= options.max) {
      rows.push(p.dim(`… +${numbered.length - i} lines`));
      break;
    }
    if (separators.has(i)) rows.push(p.dim(`${" ".repeat(width)} ⋮`));
    const body = `${r.sign} ${r.text}`;
    const styled = r.sign === "-" ? p.red(body) : r.sign === "+" ? p.green(body) : p.dim(body);
    rows.push(`${p.dim(String(r.n).padStart(width))} ${styled}`);
  }
  return rows;
}
