/**
 * Messages for people on stderr: `gatehouse: …`, wrapped at word boundaries to the terminal's
 * width (continuation rows indented), left as they are for a pipe or a file (logs stay greppable).
 */
import { terminalColumns } from "./color-support.ts";
import { wrapWords } from "./view/word-wrap.ts";

/**
 * Fits `text` (one or more lines) to `stream`: each line wrapped to the terminal's columns, rows
 * after the first indented by two spaces more than the line itself.
 * Contract: returns `text` unchanged when `stream` is not a terminal.
 */
export function fitToTerminal(text: string, stream: { isTTY?: boolean; columns?: number }): string {
  const columns = terminalColumns(stream);
  if (columns === undefined) return text;
  const trailing = text.endsWith("\n") ? "\n" : "";
  const lines = (trailing ? text.slice(0, -1) : text).split("\n");
  const rows = lines.flatMap((line) => {
    if (line.trim() === "") return [line];
    const indent = /^ */.exec(line)?.[0] ?? "";
    return wrapWords(line.trimStart(), { width: columns - 1, first: indent, line: indent, rest: `${indent}  ` });
  });
  return `${rows.join("\n")}${trailing}`;
}

/** Writes one `gatehouse: …` message to stderr, fitted to the terminal. */
export function printError(
  io: { stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number } },
  message: string,
): void {
  io.stderr.write(fitToTerminal(`gatehouse: ${message}\n`, io.stderr));
}
