import { lstatSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AuditKey, AuditKeyError, loadOrCreateAuditKey, readAuditKey } from "./audit-key.ts";
import {
  type AuditLocation,
  insideWorkspace,
  KEY_SEGMENTS,
  PROJECT_NAME,
  projectLogSegments,
  realish,
  sealSegments,
} from "./audit-location.ts";
import type { ToolAuditConfig } from "./config.ts";
import { unusableLocation } from "./log-file.ts";

/**
 * Why the configured log or key may not be used, if so: where the agent can reach them, or a
 * configured key that is not a private file of the current user (see `readAuditKey`).
 */
export function locationProblem(location: AuditLocation, config: ToolAuditConfig, cwd: string): string | undefined {
  if (!config.allowWorkspaceFile && insideWorkspace(location.file, cwd)) {
    return config.file
      ? `config.tool-audit.file ${location.file} is inside the workspace ${cwd}, where the agent's own commands (a git clean, an rm) can delete or rewrite it; remove "file" to use the per-user log, or set "allowWorkspaceFile": true to accept that`
      : `the Gatehouse directory (GATEHOUSE_HOME) holding the audit log ${location.file} is inside the workspace ${cwd}, where the agent's own commands can delete or rewrite it; move it out of the workspace`;
  }
  const unusable = unusableLocation(location.file);
  if (unusable) return `config.tool-audit.file ${location.file} ${unusable}`;
  // The log's lines hold text the model chose (paths like `$(cmd)`): appended to a file that
  // something reads as code or configuration (`~/.bashrc`, a `conf.d/` folder), they would run.
  if (config.file && !location.file.endsWith(".jsonl")) {
    return `config.tool-audit.file ${location.file} does not end in .jsonl: the audit appends lines that hold text the model chose, which a file read as code or configuration (a shell start-up file) would run; name the log *.jsonl`;
  }
  if (insideWorkspace(location.keyFile, cwd)) {
    const what = config.key ? "config.tool-audit.key" : "the audit key (in GATEHOUSE_HOME)";
    return `${what} ${location.keyFile} is inside the workspace ${cwd}, where the agent can read or replace it; keep the audit key outside the workspace`;
  }
  if (!location.defaultKey) {
    // A configured key must be usable and private before the first run: a key others can read
    // (a project naming /etc/passwd) would let anyone forge a history that verifies.
    try {
      readAuditKey(location.keyFile);
    } catch (error) {
      if (!(error instanceof AuditKeyError)) throw error;
      return `config.tool-audit.key cannot be used: ${error.message}`;
    }
  }
  return undefined;
}

function writeProjectNote(file: string, project: string, log: string): void {
  const about = { project, log, created: new Date().toISOString() };
  try {
    writeFileSync(file, `${JSON.stringify(about, null, 2)}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** Creates what the log needs in the per-user directory and reads (or creates) the key. */
export function prepareAudit(
  api: { cwd: string; privateDir: (...segments: string[]) => string },
  location: AuditLocation,
): { key: AuditKey; sealDir: string } {
  if (location.defaultFile) {
    const dir = api.privateDir(...projectLogSegments(api.cwd));
    const about = join(dir, PROJECT_NAME);
    // Written once, by the project's first session; every later one only sees it there.
    if (!lstatSync(about, { throwIfNoEntry: false })) writeProjectNote(about, realish(api.cwd), location.file);
  }
  const sealDir = api.privateDir(...sealSegments(location.file));
  if (!location.defaultKey) return { key: readAuditKey(location.keyFile) as AuditKey, sealDir };
  api.privateDir(...KEY_SEGMENTS.slice(0, -1));
  return { key: loadOrCreateAuditKey(location.keyFile), sealDir };
}
