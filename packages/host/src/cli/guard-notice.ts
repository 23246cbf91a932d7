import { join } from "node:path";
import type { ExtensionRecord } from "../extensions/types.ts";

/** The path guard whose absence a run announces. */
const PATH_GUARD = "protected-paths";

/**
 * One line for stderr when no path guard is loaded, with what enables one; "" when one is.
 * Contract: a guard counts only when it is loaded (a skipped or failed one is no guard).
 */
export function noGuardNotice(records: readonly ExtensionRecord[], cwd: string): string {
  if (records.some((r) => r.name === PATH_GUARD && r.status === "loaded")) return "";
  const settings = join(cwd, ".gatehouse", "settings.json");
  return `gatehouse: no path guard is loaded, so tools may read and write any file the OS allows; enable one by adding "@gatehouse/protected-paths" to "extensions" in ${settings}\n`;
}
