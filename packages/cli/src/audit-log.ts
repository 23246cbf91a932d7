import { lstatSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { GatehouseError, gatehouseHome, openProject } from "@gatehouse/host";
import {
  type AuditKey,
  AuditKeyError,
  auditLocation,
  readAuditKey,
  readSeals,
  sealSegments,
  unusableLocation,
} from "@gatehouse/tool-audit/readers";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";

/** A log or key that cannot be used as it is (not a regular file, open to others, …): exit 1, no stack. */
export class AuditLogError extends Error {}

/** The log an audit command works on, with its seals and key. */
export interface AuditLog {
  file: string;
  sealDir: string;
  /** True when --seals named the seal folder (a copied log verified against its original's seals). */
  sealsGiven: boolean;
  /** The key file to authenticate with (it may not exist: then verify checks structure only). */
  keyFile: string;
  /** True when the key was named with --key or by the settings (it must then exist). */
  keyGiven: boolean;
  /** True when the key was named with --key. */
  keyFromFlag: boolean;
  /** The project the log belongs to, when it was found from a project directory. */
  project?: string;
  /** True when the log is that project's own per-project log (every session in it ran there). */
  ownLog: boolean;
}

/** What the audit commands were told on the command line. */
export interface AuditLogFlags {
  cwd?: string | undefined;
  key?: string | undefined;
  seals?: string | undefined;
}

/**
 * Finds the log: FILE when given, else the project's (`config["tool-audit"].file` from its
 * settings, else its per-project log in the Gatehouse home). Seals: --seals, else the log's seal
 * folder in the home. Key: --key, else `config["tool-audit"].key`, else the per-user key.
 * Contract: reads settings only; creates nothing; a bad --cwd or settings file is a GatehouseError.
 * A --seals that is not an existing directory (missing, a file, a FIFO) is bad input: GatehouseError
 * `GH_USAGE` naming the option and path, before anything is read — never "no seals were found".
 */
export function findAuditLog(io: CliIo, flags: AuditLogFlags, positional: string | undefined): AuditLog {
  const home = gatehouseHome(io.env);
  let section: { file?: unknown; key?: unknown } | undefined;
  let cwd: string;
  if (positional) cwd = io.cwd;
  else {
    cwd = projectDir(io, flags.cwd);
    section = openProject({ cwd, env: io.env, packageBases: PACKAGE_BASES }, silentLogger(io)).settings.config[
      "tool-audit"
    ] as typeof section;
  }
  const location = auditLocation({
    home,
    cwd,
    file: positional ?? (typeof section?.file === "string" ? section.file : undefined),
    key: typeof section?.key === "string" ? section.key : undefined,
  });
  const file = location.file;
  const sealsGiven = flags.seals !== undefined ? givenSealDir(resolve(io.cwd, flags.seals)) : undefined;
  return {
    file,
    sealDir: sealsGiven ?? join(home, ...sealSegments(file)),
    sealsGiven: sealsGiven !== undefined,
    keyFile: flags.key ? resolve(io.cwd, flags.key) : location.keyFile,
    // A key the settings name must exist, like one named with --key: only the default key may be absent.
    keyGiven: flags.key !== undefined || !location.defaultKey,
    keyFromFlag: flags.key !== undefined,
    ...(positional ? {} : { project: cwd }),
    ownLog: !positional && location.defaultFile,
  };
}

/** Checks that the folder --seals names exists and is a folder (a link to one is fine). */
function givenSealDir(dir: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (error) {
    throw new GatehouseError("GH_USAGE", `--seals ${dir}: ${missingOrReason(error, "no such directory")}`);
  }
  if (!isDir) throw new GatehouseError("GH_USAGE", `--seals ${dir}: not a directory`);
  return dir;
}

/** "no such …" for a path that does not exist, else the OS reason without Node's doubled code. */
function missingOrReason(error: unknown, missing: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return missing;
  return dedupeCode((error as Error).message);
}

/** Node's messages repeat the code when wrapped once more: "ENOENT: ENOENT: no such file" → one. */
function dedupeCode(message: string): string {
  return message.replace(/\b([A-Z][A-Z0-9_]+): (?:\1: )+/g, "$1: ");
}

/**
 * A key named with --key or by the settings that does not exist is bad input (exit 2), said once:
 * which option or setting named it and where it was looked for.
 */
function checkKeyExists(log: AuditLog): void {
  if (!log.keyGiven) return;
  try {
    lstatSync(log.keyFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return; // readAuditKey names any other problem
    const by = log.keyFromFlag ? "--key" : 'the audit key configured in config["tool-audit"].key,';
    throw new GatehouseError("GH_USAGE", `${by} ${log.keyFile}: no such file`);
  }
}

/**
 * The key to verify with; undefined when the default key does not exist (verify then checks
 * structure only and says so). Contract: a key named with --key or by the settings must exist; a
 * key that exists but cannot be used (a symbolic link, not a regular file, someone else's, readable
 * or writable by others, too short) is an AuditLogError naming it: a key others can read proves
 * nothing, since they could have forged the history with it. A named key that does not exist is
 * GatehouseError `GH_USAGE` (bad input, exit 2) naming the option or setting.
 */
export function auditKeyFor(log: AuditLog): AuditKey | undefined {
  checkKeyExists(log);
  try {
    return readAuditKey(log.keyFile, { missingOk: !log.keyGiven });
  } catch (error) {
    if (error instanceof AuditKeyError) {
      throw new AuditLogError(`the audit key cannot be used: ${dedupeCode(error.message)}`);
    }
    throw error;
  }
}

/** Whether the log has records to read, and whether seals say it should have. */
export type LogPresence = { state: "present" } | { state: "missing" | "empty"; sealedRecords: number };

/**
 * How many records the seals vouch for. With the key, only seal lines that verify count: a line
 * forged by someone without the key (say `count: 0` with a higher `gen`) changes nothing. Without
 * it, every well-formed line of a session counts and the largest count wins, so such a line
 * cannot lower it either.
 */
function sealedRecords(sealDir: string, key: AuditKey | undefined): number {
  let total = 0;
  for (const entry of readSeals(sealDir, key?.seals)) {
    const counts = [entry.parsed, ...(key ? [] : (entry.others ?? []).map((o) => o.parsed))].flatMap((p) =>
      p.ok && p.authentic !== false ? [p.seal.count] : [],
    );
    total += counts.reduce((most, n) => Math.max(most, n), 0);
  }
  return total;
}

/**
 * Looks at the log before reading it.
 * Contract: a log on a kernel file system, or that is not a regular file (a folder, FIFO, device),
 * is an AuditLogError naming it — never opened, so nothing can hang; missing or empty logs are
 * reported with the number of records their seals vouch for (authenticated with `key` when given).
 */
export function logPresence(log: AuditLog, key: AuditKey | undefined): LogPresence {
  const unusable = unusableLocation(log.file);
  if (unusable) throw new AuditLogError(`audit log ${log.file} ${unusable}`);
  let size: number | undefined;
  try {
    const stat = statSync(log.file);
    if (!stat.isFile()) throw new AuditLogError(`audit log ${log.file} is not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof AuditLogError) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new AuditLogError(`audit log ${log.file} cannot be read: ${(error as Error).message}`);
    }
  }
  if (size !== undefined && size > 0) return { state: "present" };
  let sealed = 0;
  try {
    sealed = sealedRecords(log.sealDir, key);
  } catch {
    // An unreadable seal folder: verify reports it; here the log is simply absent.
  }
  return { state: size === undefined ? "missing" : "empty", sealedRecords: sealed };
}

/** The one message every audit command prints for a missing or empty log. */
export function absentLogMessage(log: AuditLog, presence: Exclude<LogPresence, { state: "present" }>): string {
  const what = presence.state === "missing" ? "does not exist" : "is empty";
  const whose = log.project ? ` of ${log.project}` : "";
  if (presence.sealedRecords > 0) {
    return `the audit log${whose} ${log.file} ${what}, but its seals vouch for ${presence.sealedRecords} records: it was ${presence.state === "missing" ? "deleted" : "emptied"} (run \`gatehouse audit verify\`)`;
  }
  return `no audit records${whose} yet: ${log.file} ${what}`;
}
