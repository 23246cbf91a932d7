/**
 * Plain ANSI escape codes for the live view: colors, line erasing, and stripping of
 * escape sequences from text the view did not produce (model output, tool results).
 */

/** The escape sequence prefix (ESC). */
const ESC = "\u001b";

/** Moves the cursor to column 0 and erases the whole line it is on. */
export const ERASE_LINE = `\r${ESC}[2K`;

/** Moves the cursor up `n` rows (n ≥ 1). */
export const cursorUp = (n: number): string => `${ESC}[${n}A`;

/** Erases from the cursor to the end of the screen. */
export const ERASE_DOWN = `${ESC}[J`;

/** Every escape sequence the view (or a tool) might print: CSI, OSC and single-character escapes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/** C0 and C1 control characters, except newline and tab which callers handle. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A function that wraps text in one color or attribute. */
export type Style = (text: string) => string;

/** The styles the view uses; each is the identity when colors are off. */
export interface Palette {
  bold: Style;
  dim: Style;
  italic: Style;
  red: Style;
  green: Style;
  yellow: Style;
  cyan: Style;
}

const CODES: Record<keyof Palette, readonly [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/**
 * Builds the palette of styles.
 * Contract: with `enabled: false` every style returns its input unchanged (no escape codes at all).
 */
export function createPalette(options: { enabled: boolean }): Palette {
  const style = (name: keyof Palette): Style => {
    if (!options.enabled) return (text) => text;
    const [open, close] = CODES[name];
    return (text) => (text === "" ? text : `${ESC}[${open}m${text}${ESC}[${close}m`);
  };
  return {
    bold: style("bold"),
    dim: style("dim"),
    italic: style("italic"),
    red: style("red"),
    green: style("green"),
    yellow: style("yellow"),
    cyan: style("cyan"),
  };
}

/** Removes every ANSI escape sequence from `text`. */
export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, "");
}

/**
 * Makes untrusted text safe to print: escape sequences removed, tabs become spaces, `\r\n`
 * becomes `\n`, and any other control character is dropped.
 * Contract: the result contains no control character except `\n`.
 */
export function sanitize(text: string): string {
  return stripAnsi(text).replace(/\r\n?/g, "\n").replace(/\t/g, "  ").replace(CONTROLS, "");
}

/** Sanitizes `text` and collapses all whitespace, newlines included, to single spaces. */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, " ").trim();
}
