import { randomUUID } from "node:crypto";
import {
  AUDIT_FORMAT_VERSION,
  GENESIS_HASH,
  type MacKey,
  macOf,
  type RecordFields,
  type RecordKind,
} from "./record.ts";
import { scrubSecrets } from "./secret-scrub.ts";

/** Options of a record chain. */
export interface RecordChainOptions {
  /** The key records are MAC-ed with (`AuditKey.records`). */
  key: MacKey;
  /** The session id; default a random UUID. */
  session?: string;
  /** Default `process.pid`. */
  pid?: number;
  /** The clock for `ts`; default `new Date()`. */
  now?: () => Date;
}

let cachedMs = Number.NaN;
let cachedIso = "";

/** The current time as ISO text, formatted once per millisecond (records come many per ms). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== cachedMs) {
    cachedMs = ms;
    cachedIso = new Date(ms).toISOString();
  }
  return cachedIso;
}

/** The longest a record's fields may be (UTF-8); verify reads no line longer than twice this. */
export const MAX_RECORD_FIELDS_BYTES = 16 * 1024 * 1024;

/**
 * The fields as written: arguments too large for a record (a custom redactor that keeps a huge
 * value) are replaced by their size, so every line stays one verify can read.
 */
function fit(rest: string, fields: object): string {
  if (rest.length <= MAX_RECORD_FIELDS_BYTES / 3 || Buffer.byteLength(rest) <= MAX_RECORD_FIELDS_BYTES) return rest;
  if (!("args" in fields)) return rest;
  const args = { redacted: true, type: "oversized", bytes: Buffer.byteLength(rest) };
  return scrubSecrets(JSON.stringify({ ...fields, args }));
}

/**
 * The keyed chain of one session: turns record bodies into serialized lines with `seq`, `prev`
 * and `mac`.
 * Contract: every line returned is one JSON object without a newline, scrubbed of well-known
 * secret shapes (`scrubSecrets`), ending with `"mac"`: the HMAC-SHA256 of the rest of the line,
 * which holds `prev`, the MAC of the session's previous line. The caller must write lines in the
 * order they were produced.
 */
export class RecordChain {
  /** The session id every line carries. */
  readonly session: string;
  readonly #key: MacKey;
  readonly #pid: number;
  readonly #now: () => string;
  /** `{"v":2,"session":"…","seq":` — the same for every line of the session. */
  readonly #prefix: string;
  #seq = 0;
  #prev = GENESIS_HASH;

  constructor(options: RecordChainOptions) {
    this.session = options.session ?? randomUUID();
    this.#key = options.key;
    this.#pid = options.pid ?? process.pid;
    const now = options.now;
    this.#now = now ? () => now().toISOString() : isoNow;
    this.#prefix = `{"v":${AUDIT_FORMAT_VERSION},"session":${JSON.stringify(this.session)},"seq":`;
  }

  /** How many lines the chain has produced. */
  get length(): number {
    return this.#seq;
  }

  /** The MAC of the last line produced (`GENESIS_HASH` before the first): what a seal records as head. */
  get head(): string {
    return this.#prev;
  }

  /**
   * Serializes the next record of the session and advances the chain. The header is written by
   * hand (it is the same shape on every line), which keeps the per-record cost low.
   */
  next<K extends RecordKind>(kind: K, fields: RecordFields<K>, turn: number): string {
    const ts = this.#now();
    const head = `${this.#prefix}${this.#seq},"prev":"${this.#prev}","ts":"${ts}","kind":"${kind}","turn":${turn},"pid":${this.#pid}`;
    // The header is ours (ids, numbers, hex, time); everything a model or tool can influence is in `rest`.
    const rest = fit(scrubSecrets(JSON.stringify(fields)), fields);
    // `open` is the record without its closing brace: the MAC covers `open}`, the line is `open,"mac":…}`.
    const open = rest === "{}" ? head : `${head},${rest.slice(1, -1)}`;
    const mac = macOf(`${open}}`, this.#key);
    this.#prev = mac;
    this.#seq++;
    return `${open},"mac":"${mac}"}`;
  }
}
