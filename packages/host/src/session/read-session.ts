import { closeSync, constants, readFileSync } from "node:fs";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { migrateEntry } from "./migrate.ts";
import { SESSION_VERSION, type SessionEntry, type SessionHeader } from "./session-format.ts";
import { openSessionFile } from "./session-path.ts";

/** A session file as read from disk. */
export interface ReadSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Byte length of the whole lines read; a torn tail starts here. */
  validBytes: number;
  /** Set when the last line was incomplete (a crash mid-append): it is ignored, never parsed. */
  tornTail?: { line: number; bytes: number };
  /** True when the file was written by an older format version and was migrated in memory. */
  migrated: boolean;
}

function fail(file: string, line: number, what: string): GatehouseError {
  return new GatehouseError("GH_SESSION", `${file}:${line}: ${what}`);
}

function parseLine(file: string, line: number, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(file, line, `corrupt line (${errorMessage(error)}); the session cannot be read past it safely`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw fail(file, line, "corrupt line (not a JSON object)");
  return value as Record<string, unknown>;
}

/**
 * Reads a session file.
 * Contract: a file that is not a regular file on storage (a pipe, a device, anything under /proc)
 * throws GH_SESSION without being read, so it can never hang. A torn last line (no trailing newline: the process died mid-append) is reported in
 * `tornTail` and ignored; a corrupt line anywhere else, a missing or malformed header, or an
 * entry without an id throws GH_SESSION naming the file and line — nothing is dropped silently.
 * Entry types this build does not know are kept as they are. Older versions are migrated.
 */
export function readSession(file: string): ReadSession {
  const fd = openSessionFile(file, constants.O_RDONLY);
  let text: string;
  try {
    text = readFileSync(fd, "utf8");
  } catch (error) {
    throw new GatehouseError("GH_SESSION", `Cannot read session ${file}: ${errorMessage(error)}`, { cause: error });
  } finally {
    closeSync(fd);
  }
  const lastNewline = text.lastIndexOf("\n");
  const whole = lastNewline < 0 ? "" : text.slice(0, lastNewline);
  const tail = text.slice(lastNewline + 1);
  const lines = whole.length > 0 ? whole.split("\n") : [];
  const result: Omit<ReadSession, "header"> & { header?: SessionHeader } = {
    entries: [],
    validBytes: Buffer.byteLength(whole) + (lastNewline < 0 ? 0 : 1),
    migrated: false,
  };
  if (tail.length > 0) result.tornTail = { line: lines.length + 1, bytes: Buffer.byteLength(tail) };
  if (lines.length === 0) throw fail(file, 1, "empty session file (no header line)");
  const header = parseLine(file, 1, lines[0] as string);
  if (header.type !== "session" || typeof header.version !== "number" || typeof header.id !== "string") {
    throw fail(file, 1, 'the first line must be the session header {"type":"session","version":N,"id":…}');
  }
  if (header.version > SESSION_VERSION) {
    throw fail(
      file,
      1,
      `session format version ${header.version} is newer than this gatehouse understands (${SESSION_VERSION})`,
    );
  }
  result.migrated = header.version < SESSION_VERSION;
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") throw fail(file, i + 1, "corrupt line (empty)");
    const entry = parseLine(file, i + 1, raw);
    if (typeof entry.id !== "string" || typeof entry.type !== "string") {
      throw fail(file, i + 1, "corrupt entry (every entry needs a string id and type)");
    }
    result.entries.push(migrateEntry(entry as unknown as SessionEntry, header.version as number));
  }
  return { ...result, header: { ...(header as unknown as SessionHeader), version: SESSION_VERSION } };
}
