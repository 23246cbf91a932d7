import { LOG_ID } from "./log-id.ts";
import { type MacKey, macOf, splitMac, withMac } from "./record.ts";

/** The version of the seal format. */
export const SEAL_FORMAT_VERSION = 1;

/**
 * What the sink vouches for after each committed turn, per session, in a file apart from the log:
 * how many records the session has, the MAC of its last one, and whether it closed. MAC-ed with
 * the key, so it cannot be forged without it.
 */
export interface Seal {
  v: typeof SEAL_FORMAT_VERSION;
  kind: "seal";
  /** The log the session writes to (its absolute path when the session started). */
  log: string;
  /** The session's number among its log's sessions, from 1 (also the seal's file name). */
  ordinal: number;
  session: string;
  keyId: string;
  /** Every session numbered up to this had finished when this one started (0: none known). */
  settled: number;
  pid: number;
  host: string;
  /** Records of the session written to the log so far. */
  count: number;
  /** The MAC of the session's last record written (the `prev` its next record will carry). */
  head: string;
  /** True once `session_end` was written. */
  closed: boolean;
  /** The log's random id (see `logIdOf`); absent in seals written before it existed. */
  logId?: string;
  /**
   * Runs of session numbers above `settled` that had finished when this one started (see
   * `vouchFinished`); absent when there were none.
   */
  seen?: [number, number][];
  /** How many times the seal was written before (the newer of a file's two slots wins). */
  gen: number;
  ts: string;
}

/** The fields a writer fills in; `v`, `kind` and `ts` are added when the seal is serialized. */
export type SealFields = Omit<Seal, "v" | "kind" | "ts">;

/** Serializes a seal as one JSON line ending with its MAC (HMAC-SHA256 under the seals key). */
export function serializeSeal(fields: SealFields, key: MacKey, now: Date = new Date()): string {
  const seal: Seal = { v: SEAL_FORMAT_VERSION, kind: "seal", ...fields, ts: now.toISOString() };
  const body = JSON.stringify(seal);
  return withMac(body, macOf(body, key));
}

/** A parsed seal; `authentic` is undefined when no key was given to check its MAC. */
export type ParsedSeal = { ok: true; seal: Seal; authentic: boolean | undefined } | { ok: false; error: string };

const HEX64 = /^[0-9a-f]{64}$/;

function shapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
  const s = value as Record<string, unknown>;
  if (s.v !== SEAL_FORMAT_VERSION || s.kind !== "seal") return "not a seal of a known version";
  if (typeof s.session !== "string" || s.session === "") return "no session id";
  for (const field of ["ordinal", "count", "settled", "pid", "gen"] as const) {
    const n = s[field];
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return `bad ${field}`;
  }
  if (typeof s.head !== "string" || !HEX64.test(s.head)) return "bad head MAC";
  if (typeof s.closed !== "boolean") return "bad closed flag";
  if (s.logId !== undefined && (typeof s.logId !== "string" || !LOG_ID.test(s.logId))) return "bad log id";
  if (s.seen !== undefined && !isRanges(s.seen)) return "bad seen ranges";
  return undefined;
}

function isRanges(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (r) =>
        Array.isArray(r) &&
        r.length === 2 &&
        r.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 1) &&
        r[0] <= r[1],
    )
  );
}

/**
 * Parses a seal file's text and, with `key`, checks its MAC.
 * Contract: never throws; `authentic` is false when the MAC does not match the key.
 */
export function parseSeal(text: string, key: MacKey | undefined): ParsedSeal {
  const line = text.trimEnd();
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})` };
  }
  const problem = shapeProblem(value);
  if (problem) return { ok: false, error: problem };
  const split = splitMac(line);
  if (!split) return { ok: false, error: 'no "mac" field at the end' };
  const authentic = key ? macOf(split.body, key) === split.mac : undefined;
  return { ok: true, seal: value as Seal, authentic };
}

/**
 * Parses a seal file (two slots, one seal line each) and returns the seal that counts: the
 * authentic (or, without a key, well-formed) one with the highest `gen`; if none is, the first
 * slot's finding, so the problem can be named.
 * Contract: never throws.
 */
export function parseSealFile(text: string, key: MacKey | undefined): ParsedSeal {
  return readSealSlots(text, key).chosen?.parsed ?? { ok: false, error: "empty" };
}

/** A seal line and what it parsed to. */
export interface SealLine {
  parsed: ParsedSeal;
  line: string;
}

/** A line of a seal file (or bucket) other than the one that counts. */
export interface OtherSealLine {
  /** Where it is: `<file>:<line>` once the caller knows the file, else `line N`. */
  where: string;
  parsed: ParsedSeal;
  /** True for a line a writer never puts there: beyond a seal file's two slots, or a second line for one session in a bucket. */
  extra: boolean;
}

/** A seal file read slot by slot: the line that counts, and every other non-blank line. */
export interface SealSlots {
  chosen: SealLine | undefined;
  others: OtherSealLine[];
}

/**
 * Reads a seal file's lines: the one that counts (see `chooseSeal`) and every other non-blank
 * line, so a line that does not verify, or one added beyond the two slots, is reported instead of
 * silently passed over.
 * Contract: never throws.
 */
export function readSealSlots(text: string, key: MacKey | undefined): SealSlots {
  const pieces = text.split("\n");
  const slots = pieces
    .map((raw, index) => ({ line: raw.trim(), index }))
    .filter(({ line }) => line !== "")
    .map(({ line, index }) => ({ parsed: parseSeal(line, key), line, index }));
  const chosen = chooseSeal(slots);
  const others = slots
    .filter((slot) => slot !== chosen)
    .map((slot) => ({ where: `line ${slot.index + 1}`, parsed: slot.parsed, extra: slot.index >= 2 }));
  // The chosen line itself may lie beyond the slots (a third line added with a higher gen).
  if (chosen && chosen.index >= 2)
    others.push({ where: `line ${chosen.index + 1}`, parsed: chosen.parsed, extra: true });
  return { chosen, others };
}

/** `parseSealFile`'s choice together with the line it was read from; undefined for an empty file. */
export function bestSealLine(text: string, key: MacKey | undefined): SealLine | undefined {
  return readSealSlots(text, key).chosen;
}

/**
 * The seal that counts among several written for one session (a file's two slots, a bucket's lines
 * for one number): the authentic (or, without a key, well-formed) one with the highest `gen`; if
 * none is, the first, so the problem can be named.
 */
export function chooseSeal<T extends SealLine>(candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) {
    const { parsed } = candidate;
    if (!parsed.ok || parsed.authentic === false) continue;
    if (!best || (best.parsed.ok && parsed.seal.gen > best.parsed.seal.gen)) best = candidate;
  }
  return best ?? candidates[0];
}
