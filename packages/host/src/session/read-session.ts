import { closeSync, constants, readFileSync } from "node:fs";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { findTooDeep } from "../common/json-depth.ts";
import { corruptLineReason, MAX_LINE_DEPTH, tooDeepReason } from "./corrupt-line.ts";
import { entryProblem } from "./entry-shape.ts";
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
  const deep = findTooDeep(text, MAX_LINE_DEPTH);
  if (deep !== undefined) throw fail(file, line, tooDeepReason(deep));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail(file, line, `${corruptLineReason(text)}; the session cannot be read past it safely`);
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
 * entry that is malformed (see `entryProblem`: a message of the wrong shape, a duplicate id, a parent
 * or target that is not an earlier entry) throws GH_SESSION naming the file and line — nothing is
 * dropped silently, and nothing malformed reaches the tree view or the model.
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
  if (lines.length === 0 || (lines.length === 1 && lines[0]?.trim() === "")) {
    throw fail(file, 1, "empty session file (no header line)");
  }
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
  const ids = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") throw fail(file, i + 1, "corrupt line (empty)");
    const parsed = parseLine(file, i + 1, raw);
    const entry = migrateEntry(parsed as unknown as SessionEntry, header.version as number);
    const problem = entryProblem(entry as unknown as Record<string, unknown>, ids);
    if (problem !== undefined) throw fail(file, i + 1, problem);
    ids.set(entry.id, i + 1);
    result.entries.push(entry);
  }
  return { ...result, header: { ...(header as unknown as SessionHeader), version: SESSION_VERSION } };
}
