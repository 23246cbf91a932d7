/** Default line cap of tool output sent to the model. */
export const DEFAULT_MAX_LINES = 2000;
/** Default byte cap (UTF-8) of tool output sent to the model. */
export const DEFAULT_MAX_BYTES = 50 * 1024;

/** Caps for `truncateHead` / `truncateTail`; both default to the values above. */
export interface TruncateLimits {
  maxLines?: number;
  maxBytes?: number;
}

/** What survived a truncation and why, so each tool can write a marker that says how to go on. */
export interface Truncation {
  /** The kept text; the input unchanged when nothing was cut. */
  text: string;
  truncated: boolean;
  /** Which cap cut the text, or null when it fitted. */
  truncatedBy: "lines" | "bytes" | null;
  /** Lines in the input; a trailing newline does not start a new line. */
  totalLines: number;
  totalBytes: number;
  /** Lines in `text`, counting a cut line as one. */
  keptLines: number;
  /** True when one line alone exceeded `maxBytes` and only part of it was kept. */
  partialLine: boolean;
}

function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The first `maxBytes` bytes of `text`, cut at a character boundary. */
function headBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  let end = Math.min(maxBytes, buffer.length);
  while (end > 0 && end < buffer.length && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString("utf8");
}

/** The last `maxBytes` bytes of `text`, cut at a character boundary. */
function tailBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  let start = Math.max(0, buffer.length - maxBytes);
  while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString("utf8");
}

function truncate(text: string, limits: TruncateLimits | undefined, fromEnd: boolean): Truncation {
  const maxLines = limits?.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = limits?.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = splitLines(text);
  const totalBytes = Buffer.byteLength(text, "utf8");
  const base = { totalLines: lines.length, totalBytes };
  if (lines.length <= maxLines && totalBytes <= maxBytes) {
    return { ...base, text, truncated: false, truncatedBy: null, keptLines: lines.length, partialLine: false };
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length; i++) {
    if (kept.length >= maxLines) break;
    const line = lines[fromEnd ? lines.length - 1 - i : i] ?? "";
    const cost = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  if (kept.length === 0) {
    // A single line is larger than the whole budget: keep the part of it nearest the edge we keep.
    const line = (fromEnd ? lines[lines.length - 1] : lines[0]) ?? "";
    const part = fromEnd ? tailBytes(line, maxBytes) : headBytes(line, maxBytes);
    return { ...base, text: part, truncated: true, truncatedBy: "bytes", keptLines: 1, partialLine: true };
  }
  if (fromEnd) kept.reverse();
  return { ...base, text: kept.join("\n"), truncated: true, truncatedBy, keptLines: kept.length, partialLine: false };
}

/**
 * Keeps the start of `text` within the line and byte caps (for file views and search results).
 * Contract: whole lines only, unless the first line alone exceeds `maxBytes` (`partialLine`).
 */
export function truncateHead(text: string, limits?: TruncateLimits): Truncation {
  return truncate(text, limits, false);
}

/**
 * Keeps the end of `text` within the line and byte caps (for command output, where the end matters).
 * Contract: whole lines only, unless the last line alone exceeds `maxBytes` (`partialLine`).
 */
export function truncateTail(text: string, limits?: TruncateLimits): Truncation {
  return truncate(text, limits, true);
}

/** Cuts one line to `maxChars` characters, saying so at the cut. */
export function truncateLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  // Never split a surrogate pair: half an emoji is not valid text.
  const code = line.charCodeAt(maxChars - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars;
  return `${line.slice(0, end)}… [line cut at ${maxChars} chars]`;
}

/** A byte count for people and models: "812 B", "50 KB", "1.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
