import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionRecord } from "@gatehouse/host";

/** The path guard whose absence a run announces. */
const PATH_GUARD = "protected-paths";

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * One line for stderr when no path guard is loaded, with what enables one (the shell command when
 * the project has no settings file yet); "" when one is loaded.
 * Contract: a guard counts only when it is loaded (a skipped or failed one is no guard).
 */
export function noGuardNotice(records: readonly ExtensionRecord[], cwd: string): string {
  if (records.some((r) => r.name === PATH_GUARD && r.status === "loaded")) return "";
  const dir = join(cwd, ".gatehouse");
  const settings = join(dir, "settings.json");
  const enable = existsSync(settings)
    ? `enable one by adding "@gatehouse/protected-paths" to "extensions" in ${settings}`
    : `enable one with: mkdir -p ${quote(dir)} && echo '{ "extensions": ["@gatehouse/protected-paths"] }' > ${quote(settings)}`;
  return `gatehouse: no path guard is loaded, so tools may read and write any file the OS allows; ${enable}\n`;
}
