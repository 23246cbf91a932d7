import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

/** The audit file of a project, at its documented default place. */
export const auditPath = (project: string) => join(project, ".gatehouse", "audit", "audit.jsonl");

/** One line of an audit file: its exact text and what it parses to. */
export interface AuditLine {
  /** 1-based line number. */
  line: number;
  text: string;
  record: { session: string; seq: number; prev: string; kind: string; [field: string]: unknown };
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

/** The sha256 hex of a line's exact bytes, computed here rather than by the plugin. */
export const sha256 = (line: string) => createHash("sha256").update(line, "utf8").digest("hex");

/**
 * Asserts that every session's records form an intact hash chain: seq contiguous from 0, the first
 * `prev` the genesis hash, every later `prev` the sha256 of that session's previous line, a
 * `session_start` first and (unless `open`) a `session_end` last. Returns the lines by session.
 */
export function expectIntactChains(lines: AuditLine[], options: { open?: boolean } = {}): Map<string, AuditLine[]> {
  const sessions = new Map<string, AuditLine[]>();
  for (const l of lines) {
    const own = sessions.get(l.record.session) ?? [];
    own.push(l);
    sessions.set(l.record.session, own);
  }
  for (const own of sessions.values()) {
    expect(own.map((l) => l.record.seq)).toEqual(own.map((_, i) => i));
    expect(own.map((l) => l.record.prev)).toEqual(["0".repeat(64), ...own.slice(0, -1).map((l) => sha256(l.text))]);
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
