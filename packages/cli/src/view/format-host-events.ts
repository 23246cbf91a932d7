/**
 * Warning lines for the host's own events: an extension that failed in a hook, and the result
 * of a hot reload.
 */
import type { GatehouseEventOf } from "@gatehouse/sdk";
import { sanitize } from "./ansi.ts";
import { firstLine } from "./result-text.ts";

/** A stack frame (`at fn (file:1:2)`): the warning names the extension, a trace is for the log. */
const STACK_FRAME = /^at\s/;

/** Longest error text a warning shows; a longer one is cut with `…`. */
const MAX_ERROR = 600;

/**
 * An error's text on one line: every non-blank line, trimmed and joined. The first line of an
 * extension's error is often only a heading (`Invalid settings FILE (malformed JSON):`, a
 * `ParseError`) and what the user must fix — file, line and column, what was expected — follows it.
 * Stack frames are left out.
 */
function errorText(text: string): string {
  const joined = sanitize(text)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !STACK_FRAME.test(line))
    .join(" ");
  return joined.length > MAX_ERROR ? `${joined.slice(0, MAX_ERROR - 1)}…` : joined;
}

/**
 * The warning for an `extension_error`, e.g. `extension tool-audit failed in tool_result: disk full`.
 * Contract: one line (wrapped by the view) naming the extension, and the hook when the event has
 * one, with the whole error: its later lines carry the file, line and cause.
 */
export function describeExtensionError(event: GatehouseEventOf<"extension_error">): string {
  const name = firstLine(event.extension) || "(unnamed)";
  // A deliberate stop (api.abortRun) is not a failure of the extension: say what it did.
  if (event.hook === "abortRun") return `run stopped by ${name}: ${errorText(event.error)}`;
  const where = event.hook === undefined ? "" : ` in ${firstLine(event.hook)}`;
  const source = event.hook === undefined && event.source !== undefined ? ` (${firstLine(event.source)})` : "";
  const error = errorText(event.error);
  return `extension ${name}${source} failed${where}${error === "" ? "" : `: ${error}`}`;
}

/**
 * The line for an `extensions_reloaded`, e.g. `extensions reloaded: loaded a; failed b`, or
 * undefined when the reload changed nothing.
 */
export function describeReload(event: GatehouseEventOf<"extensions_reloaded">): string | undefined {
  const parts = (
    [
      ["loaded", event.loaded],
      ["failed", event.failed],
      ["removed", event.removed],
    ] as const
  )
    .filter(([, names]) => names.length > 0)
    .map(([label, names]) => `${label} ${names.map(firstLine).join(", ")}`);
  return parts.length === 0 ? undefined : `extensions reloaded: ${parts.join("; ")}`;
}
