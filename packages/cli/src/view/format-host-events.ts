/**
 * Warning lines for the host's own events: an extension that failed in a hook, and the result
 * of a hot reload.
 */
import type { GatehouseEventOf } from "@gatehouse/sdk";
import { firstLine } from "./result-text.ts";

/**
 * The warning for an `extension_error`, e.g. `extension tool-audit failed in tool_result: disk full`.
 * Contract: one line naming the extension, and the hook when the event has one.
 */
export function describeExtensionError(event: GatehouseEventOf<"extension_error">): string {
  const name = firstLine(event.extension) || "(unnamed)";
  // A deliberate stop (api.abortRun) is not a failure of the extension: say what it did.
  if (event.hook === "abortRun") return `run stopped by ${name}: ${firstLine(event.error)}`;
  const where = event.hook === undefined ? "" : ` in ${firstLine(event.hook)}`;
  const source = event.hook === undefined && event.source !== undefined ? ` (${firstLine(event.source)})` : "";
  const error = firstLine(event.error);
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
