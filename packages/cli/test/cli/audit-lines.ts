import { createHash, createHmac } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/**
 * A project's audit log at its documented default place, computed here rather than by the plugin:
 * `$GATEHOUSE_HOME/audit/projects/<first 32 hex of sha256(real project path)>/audit.jsonl`.
 */
export const auditPath = (project: { dir: string; home: string }) =>
  join(
    project.home,
    "audit",
    "projects",
    createHash("sha256").update(realpathSync(project.dir)).digest("hex").slice(0, 32),
    "audit.jsonl",
  );

/** The seal folder of a log: `$GATEHOUSE_HOME/audit/seals/<first 32 hex of sha256(log path)>`. */
export const sealDirOf = (home: string, log: string) =>
  join(home, "audit", "seals", createHash("sha256").update(log).digest("hex").slice(0, 32));

/** One line of an audit file: its exact text and what it parses to. */
export interface AuditLine {
  /** 1-based line number. */
  line: number;
  text: string;
  record: { session: string; seq: number; prev: string; kind: string; mac: string; [field: string]: unknown };
}

/**
 * Reads an audit file line by line, independently of the plugin's own readers.
 * Contract: throws, naming the line, when the file does not end with a newline or a line is not
 * a JSON object (a torn or interleaved line).
 */
export function readAuditLines(file: string): { text: string; lines: AuditLine[] } {
  const text = readFileSync(file, "utf8");
  if (!text.endsWith("\n")) throw new Error(`${file}: the last line has no newline`);
  const lines = text
    .slice(0, -1)
    .split("\n")
    .map((line, i) => {
      try {
        return { line: i + 1, text: line, record: JSON.parse(line) };
      } catch (error) {
        throw new Error(`${file}:${i + 1} does not parse (${(error as Error).message}): ${line.slice(0, 200)}`);
      }
    });
  return { text, lines };
}

/**
 * The HMAC key of records, derived from the per-user key file as the plugin README documents:
 * the hex of HMAC-SHA256(key file bytes, "gatehouse-audit/records/v2").
 */
export function recordsKey(home: string): string {
  const secret = Buffer.from(readFileSync(join(home, "keys", "audit.key"), "latin1").trim(), "latin1");
  return createHmac("sha256", secret).update("gatehouse-audit/records/v2").digest("hex");
}

/** HMAC-SHA256 hex of a line's body: the line without its final `,"mac":"…"` field. */
export function macOfLine(text: string, key: string): string {
  const body = `${text.replace(/,"mac":"[0-9a-f]{64}"\}$/, "")}}`;
  return createHmac("sha256", key).update(body).digest("hex");
}

/**
 * Asserts that every session's records form an intact keyed chain: seq contiguous from 0, the first
 * `prev` the genesis value, every later `prev` the MAC of that session's previous line, every MAC
 * right for `key`, a `session_start` first and (unless `open`) a `session_end` last. Returns the
 * lines by session.
 */
export function expectIntactChains(
  lines: AuditLine[],
  key: string,
  options: { open?: boolean } = {},
): Map<string, AuditLine[]> {
  const sessions = new Map<string, AuditLine[]>();
  for (const l of lines) {
    const own = sessions.get(l.record.session) ?? [];
    own.push(l);
    sessions.set(l.record.session, own);
  }
  for (const own of sessions.values()) {
    expect(own.map((l) => l.record.seq)).toEqual(own.map((_, i) => i));
    expect(own.map((l) => l.record.prev)).toEqual(["0".repeat(64), ...own.slice(0, -1).map((l) => l.record.mac)]);
    expect(own.map((l) => l.record.mac)).toEqual(own.map((l) => macOfLine(l.text, key)));
    expect(own[0]?.record.kind).toBe("session_start");
    const closers = own.filter((l) => l.record.kind === "session_end");
    expect(closers.map((l) => l.record.seq)).toEqual(options.open ? [] : [own.length - 1]);
  }
  return sessions;
}

/** The `call_start` and `call_end` records of one tool call id. */
export function callRecords(lines: AuditLine[], id: string): { starts: AuditLine[]; ends: AuditLine[] } {
  const own = lines.filter((l) => l.record.toolCallId === id);
  return {
    starts: own.filter((l) => l.record.kind === "call_start"),
    ends: own.filter((l) => l.record.kind === "call_end"),
  };
}
