import { hash } from "node:crypto";
import type { ToolOutcome } from "@gatehouse/sdk";

/** The version of the JSONL record format; bumped only for incompatible changes (2: keyed MACs). */
export const AUDIT_FORMAT_VERSION = 2;

/** The `prev` of the first record of every session. */
export const GENESIS_HASH = "0".repeat(64);

/** What a record describes. */
export type RecordKind = "session_start" | "call_start" | "call_end" | "session_end" | "gap";

/** How the audit is written, as recorded at the start of each session. */
export type FsyncMode = "every" | "batch";

/** The fields every record starts with, in this order. */
export interface RecordHeader {
  v: typeof AUDIT_FORMAT_VERSION;
  /** Random id of one run; each session has its own hash chain. */
  session: string;
  /** 0-based, contiguous within the session. */
  seq: number;
  /** The MAC of the previous record of the same session; `GENESIS_HASH` for seq 0. */
  prev: string;
  ts: string;
  kind: RecordKind;
  /** The turn the record belongs to, counted from `turn_start` events (0 before the first). */
  turn: number;
  pid: number;
}

/** The first record of a session. */
export interface SessionStartRecord extends RecordHeader {
  kind: "session_start";
  cwd: string;
  gatehouse?: string;
  config: { fsync: FsyncMode; onWriteError: "stop" | "warn" };
  /** The id of the key the session's MACs are computed with (see `AuditKey.id`). */
  keyId?: string;
  /** The session's number among the sessions of its log (its seal's number), from 1. */
  ordinal?: number;
  /** Every session of the log numbered up to this one had finished when this one started. */
  settled?: number;
  /**
   * The previous session's authentic seal when this one started: its number, record count, last
   * MAC and whether it had closed. Verify holds that session to it, so rolling its own seal back
   * (and cutting its end) is found.
   */
  previous?: { ordinal: number; count: number; head: string; closed: boolean };
  /**
   * The final seals of the other earlier sessions that had finished since the previous session
   * started (sessions overlap): verify holds each of them to it, as to `previous`. Absent when none.
   */
  finished?: { ordinal: number; count: number; head: string; closed: boolean }[];
  /**
   * The log's random id (created with its seal folder, recorded in every seal too): a session
   * copied from another log — even one at the same path under another Gatehouse home with the same
   * key — carries another id.
   */
  logId?: string;
  /** True when the session was opened by a tool event instead of `agent_start` (e.g. after a reload). */
  midRun?: true;
}

/**
 * Written by a sink configured to reopen (`onFileReplaced: "reopen"`) when its file was unlinked,
 * renamed or replaced: the session's records before `seq` are in the lost file.
 */
export interface GapRecord extends RecordHeader {
  kind: "gap";
  cause: string;
  /** How many of this session's records went to the lost file (seq 0 to lost - 1). */
  lost: number;
}

/** A requested call, written when `tool_execution_start` is seen. */
export interface CallStartRecord extends RecordHeader {
  kind: "call_start";
  toolCallId: string;
  tool: string;
  /** The redacted arguments the model asked for. */
  args: unknown;
}

/** Sizes of a tool result; its text is never recorded. */
export interface ResultSize {
  blocks: number;
  textChars: number;
  imageBytes: number;
}

/** One effect of a call: a path it reads or writes, or the size of a command or URL it runs. */
export type RecordedEffect =
  | { kind: "read" | "write"; path: string }
  | { kind: "exec"; commandLength: number }
  | { kind: "net"; host: string | null; urlLength: number };

/** How a call ended, written when `tool_execution_end` is seen. */
export interface CallEndRecord extends RecordHeader {
  kind: "call_end";
  toolCallId: string;
  tool: string;
  outcome: ToolOutcome;
  isError: boolean;
  blockedBy?: string;
  /** The block or validation reason (policy text), at most `MAX_REASON_CHARS` characters. */
  reason?: string;
  /** Time since the matching `call_start`; absent when no start was seen. */
  durationMs?: number;
  /**
   * The session whose `call_start` this end pairs with, when that is another session: the calls of
   * another agent, checked by one hook process before they run and recorded by another after.
   */
  startSession?: string;
  resultSize: ResultSize;
  /** From the call's `effects`, when the host computed them. */
  paths?: RecordedEffect[];
  /** The redacted arguments that actually ran, only when they differ from the requested ones. */
  args?: unknown;
}

/** Counts of one session, written as its last record. */
export interface SessionEndRecord extends RecordHeader {
  kind: "session_end";
  counts: { calls: number; ended: number; unfinished: number; outcomes: Partial<Record<ToolOutcome, number>> };
}

/** Any record of the audit file. */
export type AuditRecord = SessionStartRecord | CallStartRecord | CallEndRecord | SessionEndRecord | GapRecord;

/** The fields of one kind of record after its header (the chain fills in the header). */
export type RecordFields<K extends RecordKind> = Omit<Extract<AuditRecord, { kind: K }>, keyof RecordHeader>;

/** The longest block reason kept verbatim. */
export const MAX_REASON_CHARS = 500;

const KINDS: ReadonlySet<string> = new Set(["session_start", "call_start", "call_end", "session_end", "gap"]);
const HEX64 = /^[0-9a-f]{64}$/;
/** `,"mac":"<64 hex>"}`: how every line ends. */
const MAC_SUFFIX = /,"mac":"([0-9a-f]{64})"\}$/;
const MAC_SUFFIX_LENGTH = ',"mac":""}'.length + 64;

/** A key prepared for `macOf`: the HMAC pads of a 64-byte key, computed once. */
export interface MacKey {
  /** K xor ipad, as a string of code points below 0x80 (so its UTF-8 bytes are its bytes). */
  inner: string;
  /** K xor opad. */
  outer: Buffer;
  /** K xor opad followed by room for the inner digest (32 bytes), reused by every `macOf` call. */
  outerBlock?: Buffer;
}

/** The length of an HMAC-SHA256 pad (the hash's block size). */
const OUTER_PAD_BYTES = 64;
/** The length of a SHA-256 digest. */
const DIGEST_BYTES = 32;

/**
 * Prepares a 32-byte secret for `macOf`: the HMAC key is the secret's 64 hex characters (exactly
 * one SHA-256 block, used as is), whose pads are ASCII, so the inner hash can take the record
 * text directly.
 */
export function macKey(secret: Buffer): MacKey {
  const key = Buffer.from(secret.toString("hex"), "latin1");
  const outer = Buffer.from(key.map((b) => b ^ 0x5c));
  const outerBlock = Buffer.alloc(OUTER_PAD_BYTES + DIGEST_BYTES);
  outer.copy(outerBlock);
  return { inner: Buffer.from(key.map((b) => b ^ 0x36)).toString("latin1"), outer, outerBlock };
}

/**
 * HMAC-SHA256 hex of a record's body (the line without its `mac` field). It equals
 * `createHmac("sha256", secret.toString("hex")).update(body).digest("hex")`, computed with two
 * one-shot hashes, which costs about half as much per record.
 */
export function macOf(body: string, key: MacKey): string {
  const outer = key.outerBlock;
  if (!outer) return hash("sha256", Buffer.concat([key.outer, hash("sha256", key.inner + body, "buffer")]), "hex");
  // The outer hash's input is the outer pad then the inner digest: one buffer per key, refilled.
  // The digest comes as 32 "binary" (latin1) characters, one per byte: no Buffer is made per record.
  outer.write(hash("sha256", key.inner + body, "binary"), OUTER_PAD_BYTES, DIGEST_BYTES, "latin1");
  return hash("sha256", outer, "hex");
}

/** Appends the `mac` field to a serialized record body (a JSON object). */
export function withMac(body: string, mac: string): string {
  return `${body.slice(0, -1)},"mac":"${mac}"}`;
}

/** A line split into the body its MAC covers and the MAC it carries; undefined when it carries none. */
export function splitMac(line: string): { body: string; mac: string } | undefined {
  const match = MAC_SUFFIX.exec(line);
  if (!match?.[1]) return undefined;
  return { body: `${line.slice(0, -MAC_SUFFIX_LENGTH)}}`, mac: match[1] };
}

/** One parsed line: the record, or why the line is not one (`syntax`: it is not even JSON). */
export type ParsedRecord =
  | { ok: true; record: AuditRecord; body: string; mac: string }
  | { ok: false; error: string; syntax: boolean };

/**
 * Parses one line of an audit file.
 * Contract: checks the header (version, session, seq, prev, kind) and that the line ends with its
 * `mac` field; kind-specific fields are trusted as written. Never throws.
 */
export function parseRecord(text: string): ParsedRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})`, syntax: true };
  }
  const problem = shapeProblem(value);
  if (problem) return { ok: false, error: problem, syntax: false };
  const split = splitMac(text);
  if (!split) return { ok: false, error: 'no "mac" field at the end of the line', syntax: false };
  return { ok: true, record: value as AuditRecord, body: split.body, mac: split.mac };
}

function shapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
  const r = value as Record<string, unknown>;
  if (r.v === 1)
    return "format version 1 (an unkeyed log written by an earlier Gatehouse; this version cannot authenticate it)";
  if (r.v !== AUDIT_FORMAT_VERSION) return `unsupported format version ${JSON.stringify(r.v)}`;
  if (typeof r.session !== "string" || r.session === "") return "no session id";
  if (typeof r.seq !== "number" || !Number.isSafeInteger(r.seq) || r.seq < 0) return "bad seq";
  if (typeof r.prev !== "string" || !HEX64.test(r.prev)) return "bad prev MAC";
  if (typeof r.kind !== "string" || !KINDS.has(r.kind)) return "unknown record kind";
  return undefined;
}
