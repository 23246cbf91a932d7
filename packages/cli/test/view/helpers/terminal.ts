/**
 * A tiny terminal emulator for view tests: applies printable text, `\n`, `\r` and erase-line to
 * a grid of rows, so a test can assert what a person would see at the end.
 */
import { Writable } from "node:stream";

/** A CSI sequence: ESC [ params final. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: parsing escape sequences is the point
const CSI = /^\u001b\[([0-9;?]*)([A-Za-z])/;

/** Columns a code point takes, as a terminal draws it (the cases the tests use). */
function cells(cp: number): number {
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3)) return 2;
  if ((cp >= 0xff00 && cp <= 0xff60) || (cp >= 0x1f300 && cp <= 0x1f6ff) || (cp >= 0x1f900 && cp <= 0x1f9ff)) return 2;
  return 1;
}

/** Options of the emulator. */
export interface ScreenOptions {
  /** When set, text that reaches this column wraps to the next row, as a real terminal does. */
  columns?: number;
}

/**
 * Replays `output` and returns the visible rows, trailing spaces and a trailing empty row removed.
 * Contract: SGR color codes are ignored; `ESC[2K` / `ESC[K` erase the row, `ESC[J` everything
 * below the cursor, `ESC[nA` moves the cursor up; any other escape sequence or control character
 * throws, so a test notices output it did not expect.
 */
export function screen(output: string, options: ScreenOptions = {}): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let col = 0;
  let i = 0;
  while (i < output.length) {
    const ch = output[i]!;
    if (ch === "\u001b") {
      const match = CSI.exec(output.slice(i));
      if (!match) throw new Error(`unexpected escape at ${i}: ${JSON.stringify(output.slice(i, i + 8))}`);
      const [all, params, final] = match;
      if (final === "K" && params === "2") rows[row] = [];
      else if (final === "K" && (params === "" || params === "0")) rows[row] = rows[row]!.slice(0, col);
      else if (final === "J" && (params === "" || params === "0")) {
        rows[row] = rows[row]!.slice(0, col);
        rows.length = row + 1;
      } else if (final === "A") row = Math.max(0, row - Number(params || "1"));
      else if (final !== "m") throw new Error(`unexpected sequence ${JSON.stringify(all)}`);
      i += all.length;
      continue;
    }
    if (ch === "\n") {
      row += 1;
      col = 0;
      rows[row] ??= [];
      i += 1;
      continue;
    }
    if (ch === "\r") {
      col = 0;
      i += 1;
      continue;
    }
    const cp = output.codePointAt(i)!;
    if (cp < 0x20 || cp === 0x7f) throw new Error(`unexpected control character ${cp} at ${i}`);
    const glyph = String.fromCodePoint(cp);
    const width = cells(cp);
    if (options.columns !== undefined && col + width > options.columns) {
      row += 1;
      col = 0;
      rows[row] ??= [];
    }
    const line = rows[row]!;
    while (line.length < col) line.push(" ");
    line[col] = glyph;
    for (let k = 1; k < width; k++) line[col + k] = "";
    col += width;
    i += glyph.length;
  }
  const text = rows.map((cellsOfRow) =>
    cellsOfRow
      .map((c) => c ?? " ")
      .join("")
      .trimEnd(),
  );
  if (text.length > 0 && text[text.length - 1] === "") text.pop();
  return text;
}

/** Removes SGR and other CSI sequences, for assertions on raw output. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping escape sequences is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}

/** True when `text` contains an SGR (color or attribute) sequence. */
export function hasColorCodes(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape sequences is the point
  return /\u001b\[[0-9;]*m/.test(text);
}

/** A writable stream that keeps everything written to it, optionally posing as a terminal. */
export class MemoryStream extends Writable {
  /** Every chunk, in order, as written. */
  readonly chunks: string[] = [];
  isTTY?: boolean;
  columns?: number;

  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    super();
    if (options.isTTY !== undefined) this.isTTY = options.isTTY;
    if (options.columns !== undefined) this.columns = options.columns;
  }

  /** Everything written so far. */
  get text(): string {
    return this.chunks.join("");
  }

  /** The plain-mode lines written so far (the final newline does not make an empty line). */
  lines(): string[] {
    const lines = this.text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString());
    callback();
  }
}
