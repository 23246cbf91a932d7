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

/** Start offsets of the non-overlapping occurrences of `needle`, left to right. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

/**
 * Finds where one edit applies. Models usually send LF text; when that misses in a file whose
 * breaks are CRLF (or the reverse), the edit is retried in the file's style, and the new text
 * always gets the line breaks of the text it replaces, so the file keeps its line endings.
 */
function locate(content: string, edit: TextEdit): { at: number[]; oldText: string; newText: string } {
  const fileEol = dominantEol(content);
  const exact = occurrences(content, edit.oldText);
  const converted = withEol(edit.oldText, fileEol);
  const useConverted = exact.length === 0 && converted !== edit.oldText;
  const oldText = useConverted ? converted : edit.oldText;
  const at = useConverted ? occurrences(content, converted) : exact;
  const eol = /\r?\n/.test(oldText) ? dominantEol(oldText) : fileEol;
  return { at, oldText, newText: /\r?\n/.test(content) ? withEol(edit.newText, eol) : edit.newText };
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
 * overlap. Messages name `displayPath` and the offending edit and say how to fix the call.
 */
export function applyEdits(options: { content: string; edits: readonly TextEdit[]; displayPath: string }): EditOutcome {
  const { content, edits, displayPath } = options;
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
    const { at, oldText, newText } = locate(content, edit);
    if (at.length === 0) return { ok: false, message: notFound(content, edit, label, displayPath) };
    if (at.length > 1 && edit.replaceAll !== true) {
      const message = `${label} matches ${at.length} times in ${displayPath}; include more surrounding lines so it matches exactly once, or set replaceAll: true to replace every occurrence.`;
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
