/**
 * Word wrapping for terminal text: rows break at spaces, never inside a word (a word wider than a
 * whole row is the one exception: it is cut at the row's end). Works on text that arrives in pieces,
 * so streamed assistant text wraps exactly as the whole text would.
 */
import { displayWidth, takeWidth } from "./text-width.ts";

/** How rows are laid out. Prefixes may carry colour codes: only their visible columns count. */
export interface WrapLayout {
  /** Columns a row may take, prefix included. */
  width: number;
  /** Prefix of the very first row. Default "". */
  first?: string;
  /** Prefix of the first row of every later line of the text (after a newline). Default `rest`. */
  line?: string;
  /** Prefix of a row that continues a wrapped line. Default "". */
  rest?: string;
}

/** A wrapper fed with pieces of one text. */
export interface WordWrapper {
  /**
   * The output for `piece` (rows separated by `\n`). `rowOpen` says whether the row this wrapper
   * last wrote to is still open; when something else closed it, the text goes on in a new row.
   */
  push(piece: string, rowOpen?: boolean): string;
  /** The output that ends the text: the held-back word, then `\n` when a row is open. */
  end(rowOpen?: boolean): string;
}

const SPACE = /\s/;

/**
 * Creates a wrapper for one text.
 * Contract: outer blank lines are dropped, inner ones kept (as empty rows, without prefix);
 * trailing spaces are dropped; spaces that start a line are kept (indentation), spaces where a row
 * breaks are not; every row fits in `width` columns. Whitespace is expected to be spaces and `\n`
 * (sanitize tabs and `\r` first). A word is written once it is complete.
 */
export function createWordWrapper(layout: WrapLayout): WordWrapper {
  const width = Math.max(1, layout.width);
  const first = layout.first ?? "";
  const rest = layout.rest ?? "";
  const linePrefix = layout.line ?? rest;
  let started = false; // any word written yet
  let lineStart = true; // the next word starts a line of the text
  let col = 0; // columns used on the open row; 0 when no row is open
  let blankLines = 0;
  let spaces = "";
  let word = "";

  let fresh = true; // the open row holds nothing but its prefix

  function newRow(prefix: string): string {
    col = displayWidth(prefix);
    fresh = true;
    return prefix;
  }

  /** Writes `text` after `gap` on the open row, or on new rows when it does not fit. */
  function place(text: string, gap: string): string {
    const need = displayWidth(gap) + displayWidth(text);
    if (col + need <= width) {
      col += need;
      fresh = false;
      return `${gap}${text}`;
    }
    let out = "";
    if (!fresh) out += `\n${newRow(rest)}`;
    else if (col + displayWidth(gap) < width) {
      out += gap; // indentation stays when the row has room for it
      col += displayWidth(gap);
    }
    let remaining = text;
    for (;;) {
      // A word wider than the rest of a fresh row is cut at the row's edge.
      const head = takeWidth(remaining, Math.max(1, width - col)) || String.fromCodePoint(remaining.codePointAt(0)!);
      out += head;
      col += displayWidth(head);
      fresh = false;
      remaining = remaining.slice(head.length);
      if (remaining === "") return out;
      out += `\n${newRow(rest)}`;
    }
  }

  function flush(rowOpen: boolean): string {
    if (word === "") return "";
    let out = "";
    if (col > 0 && !rowOpen) col = 0; // someone else ended our row: go on in a new one
    if (lineStart || col === 0) {
      out += "\n".repeat(started && lineStart ? blankLines : 0);
      const prefix = !started ? first : lineStart ? linePrefix : rest;
      out += newRow(prefix);
      const lead = lineStart ? spaces : "";
      out += place(word, lead);
    } else out += place(word, spaces);
    started = true;
    lineStart = false;
    blankLines = 0;
    spaces = "";
    word = "";
    return out;
  }

  return {
    push(piece, rowOpen = true) {
      let out = "";
      let open = rowOpen;
      for (const ch of piece) {
        if (ch === "\n") {
          out += flush(open);
          open = open || out !== "";
          spaces = "";
          if (!started) continue;
          if (!lineStart) {
            if (col > 0 && open) out += "\n";
            col = 0;
            lineStart = true;
          } else blankLines += 1;
        } else if (SPACE.test(ch)) {
          out += flush(open);
          if (out !== "") open = true;
          spaces += ch;
        } else word += ch;
      }
      return out;
    },
    end(rowOpen = true) {
      const out = flush(rowOpen);
      const open = out !== "" || rowOpen;
      const close = col > 0 && open ? "\n" : "";
      col = 0;
      return `${out}${close}`;
    },
  };
}

/** Wraps a whole text into rows (no trailing newline); see `createWordWrapper`. */
export function wrapWords(text: string, layout: WrapLayout): string[] {
  const wrapper = createWordWrapper(layout);
  const out = wrapper.push(text) + wrapper.end();
  if (out === "") return [];
  return out.replace(/\n$/, "").split("\n");
}
