/**
 * How `gatehouse audit tail` and `audit stats` print records for people: aligned columns, the
 * paths each call touched, words in the right number. Every field comes from a file a model could
 * have shaped (paths, tool names), so each is made safe to print first.
 */
import type { AuditEntry, AuditStats } from "@gatehouse/tool-audit/readers";
import { plural } from "./plural.ts";
import { oneLine } from "./view/ansi.ts";
import { displayWidth } from "./view/text-width.ts";

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A field as one line of text. Records are unverified input: only strings, numbers and booleans
 * are shown; anything else (an object with its own `toString`, an array) is a fixed label, so no
 * record can make the command throw.
 */
function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return oneLine(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "(not text)";
}

/** A count from a record: a finite number, else 0. */
const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** What one call touched, from the end record's effects (or the start record's path argument). */
function touched(r: Fields): string {
  const effects = Array.isArray(r.paths) ? r.paths.filter(isFields) : [];
  const shown = effects.map((e) => {
    if (e.kind === "read" || e.kind === "write") return `${text(e.kind)} ${text(e.path)}`;
    if (e.kind === "exec") return `exec (${plural(count(e.commandLength), "char")})`;
    if (e.kind === "net") return `net ${text(e.host ?? "?")}`;
    return text(e.kind);
  });
  if (shown.length > 0) return shown.join(", ");
  return isFields(r.args) && typeof r.args.path === "string" ? text(r.args.path) : "";
}

/** The cells of one tail row: time, session#seq, kind, tool, call id, outcome, what it touched. */
export function tailCells(entry: AuditEntry): string[] {
  if (!entry.ok) return [`line ${entry.line}: not a record (${text(entry.error)})`];
  const r = entry.record as unknown as Fields;
  const head = [text(r.ts), `${text(r.session).slice(0, 8)}#${text(r.seq)}`, text(r.kind)];
  switch (r.kind) {
    case "call_start":
      return [...head, text(r.tool), text(r.toolCallId), "", touched(r)];
    case "call_end": {
      const by = r.blockedBy ? ` by ${text(r.blockedBy)}` : "";
      return [...head, text(r.tool), text(r.toolCallId), `${text(r.outcome)}${by}`, touched(r)];
    }
    case "session_start":
      return [...head, "", "", "", text(r.cwd)];
    case "session_end": {
      const counts = isFields(r.counts) ? r.counts : {};
      return [...head, "", "", "", `${plural(count(counts.calls), "call")}, ${count(counts.unfinished)} unfinished`];
    }
    default:
      return [...head, "", "", "", text(r.cause)];
  }
}

/** Keeps column widths across rows (they only grow), so followed records stay aligned. */
export interface ColumnWidths {
  widths: number[];
}

/** Grows `columns` to fit `rows`. */
export function fitColumns(columns: ColumnWidths, rows: readonly string[][]): void {
  for (const row of rows) {
    if (row.length === 1) continue;
    row.forEach((cell, i) => {
      columns.widths[i] = Math.max(columns.widths[i] ?? 0, displayWidth(cell));
    });
  }
}

/** One row with every cell but the last padded to its column; a bad line is printed as it is. */
export function alignRow(columns: ColumnWidths, row: readonly string[]): string {
  if (row.length === 1) return row[0] ?? "";
  return row
    .map((cell, i) =>
      i === row.length - 1 ? cell : cell + " ".repeat(Math.max(0, (columns.widths[i] ?? 0) - displayWidth(cell))),
    )
    .join("  ")
    .trimEnd();
}

/** The lines of `audit stats`: totals, then one aligned row per tool. */
export function statsLines(stats: AuditStats): string[] {
  const head = [
    plural(stats.records, "record"),
    plural(stats.sessions, "session"),
    `${plural(stats.ended, "call")} ended`,
    `${stats.unfinished} unfinished`,
    ...(stats.badLines > 0 ? [`${plural(stats.badLines, "line")} not a record`] : []),
  ].join(", ");
  const rows = Object.entries(stats.tools).map(([tool, s]) => {
    const outcomes = Object.entries(s.outcomes).map(([outcome, n]) => `${outcome} ${n}`);
    if (s.unfinished) outcomes.push(`unfinished ${s.unfinished}`);
    return [text(tool), plural(s.ended + s.unfinished, "call"), outcomes.join(", ")];
  });
  const columns: ColumnWidths = { widths: [] };
  fitColumns(columns, rows);
  return [`${stats.file}: ${head}`, ...rows.map((row) => `  ${alignRow(columns, row)}`)];
}
