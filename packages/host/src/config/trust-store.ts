import { GatehouseError } from "../common/errors.ts";
import { digestProjectFiles, projectRealPath } from "./project-files.ts";
import { osReason } from "./read-json-file.ts";
import { readTrustFile, type TrustRecord, writeTrustFile } from "./trust-file.ts";

/** A project and the files of its own code and settings, as the caller found them. */
export interface TrustOptions {
  /** The Gatehouse home holding `trust.json`. */
  home: string;
  /** The project root; trust is recorded under its real path. */
  projectDir: string;
  /** Absolute paths of the project's extension code and settings files. */
  files: readonly string[];
}

/** Whether a project's code may run, and what differs from what was trusted. */
export interface TrustStatus {
  trusted: boolean;
  /** One sentence saying why not, when not trusted. */
  reason?: string;
  /** Trusted files whose content differs now (or that cannot be read), as paths relative to the project. */
  changed: string[];
  /** Files that were not there when trust was granted (every file, when there is no record). */
  added: string[];
  /** Trusted files that are gone. */
  removed: string[];
}

/**
 * Checks a project's files against the trust granted to it.
 * Contract: trusted only if a record exists for the project's real path (symlinks resolved) and the
 * set of files and each file's sha256 equal the recorded ones; an edited, added or removed file
 * makes it untrusted, listed in `changed`/`added`/`removed` and named in `reason`. Reads only; a
 * corrupt store throws `GH_SETTINGS_INVALID` (see `readTrustFile`).
 */
export function trustStatus(options: TrustOptions): TrustStatus {
  const project = projectRealPath(options.projectDir);
  const record = readTrustFile(options.home).projects[project];
  const current = digestProjectFiles(options.projectDir, options.files);
  if (record === undefined) {
    const reason = `project ${project} has not been trusted`;
    return { trusted: false, reason, changed: [], added: [...current.keys()], removed: [] };
  }
  const diff: Omit<TrustStatus, "trusted"> = { changed: [], added: [], removed: [] };
  for (const [path, digest] of current) {
    const trusted = record.files[path];
    if (trusted === undefined) diff.added.push(path);
    else if (digest !== trusted) diff.changed.push(path);
  }
  diff.removed.push(...Object.keys(record.files).filter((path) => !current.has(path)));
  if (diff.changed.length + diff.added.length + diff.removed.length === 0) return { trusted: true, ...diff };
  return { trusted: false, ...diff, reason: describeChanges(diff, { current, grantedAt: record.grantedAt }) };
}

/**
 * Trusts a project's files as they are now, replacing any earlier record for the project.
 * Contract: a file that cannot be read throws `GH_SETTINGS_INVALID` and nothing is recorded; the
 * store is written atomically (see `writeTrustFile`); other projects' records are kept.
 */
export function grantTrust(options: TrustOptions): TrustRecord {
  const files: Record<string, string> = {};
  const digests = [...digestProjectFiles(options.projectDir, options.files)].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [path, digest] of digests) {
    if (digest instanceof Error) {
      const message = `Cannot trust ${projectRealPath(options.projectDir)}: cannot read ${path}: ${osReason(digest)}`;
      throw new GatehouseError("GH_SETTINGS_INVALID", message, { cause: digest });
    }
    files[path] = digest;
  }
  const store = readTrustFile(options.home);
  const record: TrustRecord = { grantedAt: new Date().toISOString(), files };
  store.projects[projectRealPath(options.projectDir)] = record;
  writeTrustFile(options.home, store);
  return record;
}

/**
 * Removes a project's trust and returns whether there was any.
 * Contract: the store is rewritten only when a record was removed; other projects' records are kept.
 */
export function revokeTrust(options: { home: string; projectDir: string }): boolean {
  const store = readTrustFile(options.home);
  const project = projectRealPath(options.projectDir);
  if (!Object.hasOwn(store.projects, project)) return false;
  delete store.projects[project];
  writeTrustFile(options.home, store);
  return true;
}

/** `a.ts was edited, b.ts was added and 2 more files changed since trust was granted at <time>`. */
function describeChanges(
  diff: Omit<TrustStatus, "trusted">,
  context: { current: ReadonlyMap<string, string | Error>; grantedAt: string },
): string {
  const parts = [
    ...diff.changed.map(
      (path) => `${path} ${context.current.get(path) instanceof Error ? "cannot be read" : "was edited"}`,
    ),
    ...diff.added.map((path) => `${path} was added`),
    ...diff.removed.map((path) => `${path} was removed`),
  ];
  const shown = parts.length > 3 ? [...parts.slice(0, 2), `${parts.length - 2} more files changed`] : parts;
  const listed = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
  return `${listed} since trust was granted at ${context.grantedAt}`;
}
