import { type RawLine, type ReadLinesOptions, readLines } from "./read-lines.ts";
import { type AuditRecord, parseRecord } from "./record.ts";

/** One line of an audit file: a record, or why the line is not one. */
export type AuditEntry =
  | { ok: true; line: number; record: AuditRecord; text: string }
  | { ok: false; line: number; error: string; text: string };

/** Turns one raw line into an entry. */
export function toEntry(raw: RawLine): AuditEntry {
  if (raw.oversized !== undefined) {
    return { ok: false, line: raw.line, error: `a line of ${raw.oversized} bytes, longer than any record`, text: "" };
  }
  const text = raw.bytes.toString("utf8");
  if (!raw.terminated) return { ok: false, line: raw.line, error: "torn line (no newline)", text };
  const parsed = parseRecord(text);
  return parsed.ok
    ? { ok: true, line: raw.line, record: parsed.record, text }
    : { ok: false, line: raw.line, error: parsed.error, text };
}

/**
 * The entries of an audit file in order, with their line numbers, streamed.
 * Contract: lines that are not records are yielded as `{ ok: false }`, never skipped silently;
 * rejects if the file cannot be read.
 */
export async function* readRecords(file: string, options: ReadLinesOptions = {}): AsyncGenerator<AuditEntry> {
  for await (const raw of readLines(file, options)) yield toEntry(raw);
}
