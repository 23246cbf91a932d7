import { resolve } from "node:path";
import { GatehouseError } from "../common/errors.ts";
import { osReason } from "./os-reason.ts";
import { digestProjectFiles, projectRealPath } from "./project-files.ts";
import { type ExtensionTrustRecord, readTrustFile, type TrustRecord, writeTrustFile } from "./trust-file.ts";

/** One project extension as trust sees it: its key (the entry, relative to the project) and the files it loads. */
export interface ExtensionCode {
  /** The entry's path relative to the project (`/`-separated): the extension's identity in the store. */
  key: string;
  /** Absolute paths of every project file it loads (its import graph, the entry included). */
  files: readonly string[];
}

/** A project and its extensions' code, as the caller found them. */
export interface TrustOptions {
  /** The Gatehouse home holding `trust.json`. */
  home: string;
  /** The project root; trust is recorded under its real path. */
  projectDir: string;
  /** The project extensions that are enabled now. */
  extensions: readonly ExtensionCode[];
}

/** Whether one extension's code may run, and what differs from what was trusted. */
export interface TrustStatus {
  trusted: boolean;
  /** One sentence saying why not, when not trusted. */
  reason?: string;
  /** Trusted files whose content differs now (or that cannot be read), as paths relative to the project. */
  changed: string[];
  /** Files it loads now that were not part of it when trust was granted (every file, when there is no record). */
  added: string[];
  /** Trusted files it no longer loads. */
  removed: string[];
  /** What trust approved for it: file real path → sha256 (empty unless trusted). */
  approved: ReadonlyMap<string, string>;
  /** When trust was granted to this extension; absent when it never was (a new project or extension). */
  grantedAt?: string;
}

/** The command that trusts a project, for messages. */
export function trustCommand(projectDir: string): string {
  const dir =
    projectDir.includes(" ") || projectDir.includes("'") ? `'${projectDir.replaceAll("'", "'\\''")}'` : projectDir;
  return `"gatehouse trust --cwd ${dir}"`;
}

/**
 * Checks each extension's code against the trust granted to it.
 * Contract: an extension is trusted only if the project's record (under its real path) has an entry
 * for its key whose files are exactly the files it loads now, each with the recorded sha256; an
 * edited, newly imported or no longer imported file makes only that extension untrusted, listed in
 * `changed`/`added`/`removed` and named in `reason`. Files outside any extension's graph do not
 * matter. Reads only; a corrupt store throws `GH_SETTINGS_INVALID`.
 */
export function trustStatuses(options: TrustOptions): Map<string, TrustStatus> {
  const project = projectRealPath(options.projectDir);
  const store = readTrustFile(options.home);
  const record = store.projects[project];
  const statuses = new Map<string, TrustStatus>();
  for (const extension of options.extensions) {
    const current = digestProjectFiles(options.projectDir, extension.files);
    const trusted = record?.extensions[extension.key];
    if (trusted === undefined) {
      const reason = store.legacy?.has(project)
        ? `trust for ${project} was granted by an older Gatehouse that did not cover imported files`
        : record === undefined
          ? `project ${project} has not been trusted`
          : `${extension.key} was not enabled when trust was granted at ${record.grantedAt}`;
      statuses.set(extension.key, {
        trusted: false,
        reason,
        changed: [],
        added: [...current.keys()],
        removed: [],
        approved: new Map(),
      });
      continue;
    }
    statuses.set(extension.key, compare(project, current, trusted));
  }
  return statuses;
}

function compare(
  project: string,
  current: ReadonlyMap<string, string | Error>,
  trusted: ExtensionTrustRecord,
): TrustStatus {
  const diff = { changed: [] as string[], added: [] as string[], removed: [] as string[] };
  for (const [path, digest] of current) {
    const recorded = trusted.files[path];
    if (recorded === undefined) diff.added.push(path);
    else if (digest !== recorded) diff.changed.push(path);
  }
  diff.removed.push(...Object.keys(trusted.files).filter((path) => !current.has(path)));
  if (diff.changed.length + diff.added.length + diff.removed.length === 0) {
    const approved = new Map(Object.entries(trusted.files).map(([path, digest]) => [resolve(project, path), digest]));
    return { trusted: true, ...diff, approved, grantedAt: trusted.grantedAt };
  }
  return {
    trusted: false,
    ...diff,
    approved: new Map(),
    grantedAt: trusted.grantedAt,
    reason: describeChanges(diff, { current, grantedAt: trusted.grantedAt }),
  };
}

/**
 * Trusts the project's enabled extensions as their code is now, replacing the project's record
 * (the list of trusted extensions is exactly `extensions`).
 * Contract: a file that cannot be read throws `GH_SETTINGS_INVALID` and nothing is recorded; the
 * store is written atomically (see `writeTrustFile`); other projects' records are kept.
 */
export function grantTrust(options: TrustOptions): TrustRecord {
  const grantedAt = new Date().toISOString();
  const project = projectRealPath(options.projectDir);
  const extensions: TrustRecord["extensions"] = {};
  for (const extension of options.extensions) {
    const files: Record<string, string> = {};
    const digests = [...digestProjectFiles(options.projectDir, extension.files)].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [path, digest] of digests) {
      if (digest instanceof Error) {
        const message = `Cannot trust ${project}: cannot read ${path}: ${osReason(digest)}`;
        throw new GatehouseError("GH_SETTINGS_INVALID", message, { cause: digest });
      }
      files[path] = digest;
    }
    extensions[extension.key] = { grantedAt, files };
  }
  const store = readTrustFile(options.home);
  const record: TrustRecord = { grantedAt, extensions };
  store.projects[project] = record;
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
  if (!Object.hasOwn(store.projects, project) && !store.legacy?.has(project)) return false;
  delete store.projects[project];
  writeTrustFile(options.home, store);
  return true;
}

/** `a.ts was edited, b.ts was added and 2 more files changed since trust was granted at <time>`. */
function describeChanges(
  diff: { changed: string[]; added: string[]; removed: string[] },
  context: { current: ReadonlyMap<string, string | Error>; grantedAt: string },
): string {
  const parts = [
    ...diff.changed.map(
      (path) => `${path} ${context.current.get(path) instanceof Error ? "cannot be read" : "was edited"}`,
    ),
    ...diff.added.map((path) => `${path} is now imported`),
    ...diff.removed.map((path) => `${path} is no longer imported`),
  ];
  const shown = parts.length > 3 ? [...parts.slice(0, 2), `${parts.length - 2} more files changed`] : parts;
  const listed = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
  return `${listed} since trust was granted at ${context.grantedAt}`;
}
