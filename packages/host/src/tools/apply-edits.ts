/** One exact-text replacement requested by the model. */
export interface TextEdit {
  oldText: string;
  newText: string;
  replaceAll?: boolean | undefined;
}

/** The new content and per-edit replacement counts, or a message saying what to fix. */
export type EditOutcome =
  | { ok: true; content: string; counts: number[]; firstChangedLine: number }
  | { ok: false; message: string };

interface Span {
  start: number;
  end: number;
  text: string;
  edit: number;
}

/** "\r\n" when most line breaks of `text` are CRLF, "\n" otherwise. */
function dominantEol(text: string): "\r\n" | "\n" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

function withEol(text: string, eol: string): string {
  return text.replace(/\r?\n/g, eol);
}

/**
 * The most text one edit call may search, counted as the file's length once per edit: each edit
 * scans the whole file (an edit that must match once is only known to after the end). Without a
 * bound, 500 edits of a 5 MB file held the host's thread for over a minute, deaf to Ctrl-C, and a
 * 1 MiB call can carry 20,000 edits.
 */
export const MAX_EDIT_SCAN_CHARS = 128 * 1024 * 1024;

/**
 * The most replacements one edit call makes: each is kept until the file is rebuilt, so
 * `replaceAll` of one character in a large file took gigabytes of memory.
 */
export const MAX_EDIT_REPLACEMENTS = 100_000;

/** Start offsets of the non-overlapping occurrences of `needle`, left to right; at most `limit` + 1. */
function occurrences(haystack: string, needle: string, limit: number): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    found.push(at);
    if (found.length > limit) break;
  }
  return found;
}

/**
 * Finds where one edit applies. Models usually send LF text; when that misses in a file whose
 * breaks are CRLF (or the reverse), the edit is retried in the file's style, and the new text
 * always gets the line breaks of the text it replaces, so the file keeps its line endings.
 */
function locate(
  file: { content: string; eol: "\r\n" | "\n"; multiline: boolean },
  edit: TextEdit,
  limit: number,
): { at: number[]; oldText: string; newText: string } {
  const { content, eol: fileEol } = file;
  const exact = occurrences(content, edit.oldText, limit);
  const converted = withEol(edit.oldText, fileEol);
  const useConverted = exact.length === 0 && converted !== edit.oldText;
  const oldText = useConverted ? converted : edit.oldText;
  const at = useConverted ? occurrences(content, converted, limit) : exact;
  const eol = /\r?\n/.test(oldText) ? dominantEol(oldText) : fileEol;
  return { at, oldText, newText: file.multiline ? withEol(edit.newText, eol) : edit.newText };
}

/** Why an edit call would take too much time or memory, or undefined when it is within bounds. */
function tooMuch(content: string, edits: readonly TextEdit[], displayPath: string): string | undefined {
  if (edits.length * content.length <= MAX_EDIT_SCAN_CHARS) return undefined;
  const most = Math.max(1, Math.floor(MAX_EDIT_SCAN_CHARS / Math.max(1, content.length)));
  return `${edits.length} edits of ${displayPath} (${content.length} characters) are more than one call searches; send at most ${most} edits per call for this file, or use bash (sed) for bulk changes.`;
}

function notFound(content: string, edit: TextEdit, label: string, displayPath: string): string {
  const trimmed = edit.oldText.trim();
  const hint =
    trimmed.length > 0 && trimmed !== edit.oldText && content.includes(trimmed)
      ? " Text without its leading/trailing whitespace does occur: check indentation and blank lines."
      : "";
  return `${label} was not found in ${displayPath}. It must match the file exactly, including whitespace and indentation; read the file again and copy the text to replace.${hint}`;
}

/**
 * Applies exact-text edits to `content`, all or nothing.
 * Contract: every edit is matched against the original content (not the result of earlier edits);
 * each must match exactly once unless it sets `replaceAll`; matches of different edits must not
 * overlap. The work is bounded: refused when the edits times the file's length exceed
 * `MAX_EDIT_SCAN_CHARS`, or when they would make more than `MAX_EDIT_REPLACEMENTS` replacements.
 * Messages name `displayPath` and the offending edit and say how to fix the call.
 */
export function applyEdits(options: { content: string; edits: readonly TextEdit[]; displayPath: string }): EditOutcome {
  const { content, edits, displayPath } = options;
  const excess = tooMuch(content, edits, displayPath);
  if (excess !== undefined) return { ok: false, message: excess };
  // The file's line-break style, found once (a scan of the whole file) rather than once per edit.
  const file = { content, eol: dominantEol(content), multiline: /\r?\n/.test(content) };
  const spans: Span[] = [];
  const counts: number[] = [];
  for (const [index, edit] of edits.entries()) {
    const label = edits.length === 1 ? "oldText" : `edits[${index}].oldText`;
    if (edit.oldText === edit.newText) {
      return {
        ok: false,
        message: `${label} is identical to its newText, so editing ${displayPath} would change nothing.`,
      };
    }
    const left = MAX_EDIT_REPLACEMENTS - spans.length;
    const { at, oldText, newText } = locate(file, edit, left);
    if (at.length === 0) return { ok: false, message: notFound(content, edit, label, displayPath) };
    if (at.length > 1 && edit.replaceAll !== true) {
      const times = at.length > left ? `more than ${left}` : String(at.length);
      const message = `${label} matches ${times} times in ${displayPath}; include more surrounding lines so it matches exactly once, or set replaceAll: true to replace every occurrence.`;
      return { ok: false, message };
    }
    if (at.length > left) {
      const message = `${label} occurs more often in ${displayPath} than the ${MAX_EDIT_REPLACEMENTS} replacements one edit call makes; replace in parts, or use bash (sed) for a bulk replacement.`;
      return { ok: false, message };
    }
    counts.push(at.length);
    for (const start of at) spans.push({ start, end: start + oldText.length, text: newText, edit: index });
  }
  spans.sort((a, b) => a.start - b.start);
  let result = "";
  let previous: Span | undefined;
  for (const span of spans) {
    if (previous !== undefined && span.start < previous.end) {
      const message = `edits[${previous.edit}] and edits[${span.edit}] overlap in ${displayPath}; merge them into one edit.`;
      return { ok: false, message };
    }
    result += content.slice(previous?.end ?? 0, span.start) + span.text;
    previous = span;
  }
  result += content.slice(previous?.end ?? 0);
  const first = spans[0]?.start ?? 0;
  const firstChangedLine = content.slice(0, first).split("\n").length;
  return { ok: true, content: result, counts, firstChangedLine };
}
