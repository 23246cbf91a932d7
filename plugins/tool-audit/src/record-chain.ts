import { randomUUID } from "node:crypto";
import { AUDIT_FORMAT_VERSION, GENESIS_HASH, hashLine, type RecordFields, type RecordKind } from "./record.ts";

/** Options of a record chain. */
export interface RecordChainOptions {
  /** The session id; default a random UUID. */
  session?: string;
  /** Default `process.pid`. */
  pid?: number;
  /** The clock for `ts`; default `new Date()`. */
  now?: () => Date;
}

/**
 * The hash chain of one session: turns record bodies into serialized lines with `seq` and `prev`.
 * Contract: every line returned is one JSON object without a newline; line n+1 carries the sha256
 * of line n's exact UTF-8 bytes. The caller must write lines in the order they were produced.
 */
export class RecordChain {
  /** The session id every line carries. */
  readonly session: string;
  readonly #pid: number;
  readonly #now: () => Date;
  /** `{"v":1,"session":"…","seq":` — the same for every line of the session. */
  readonly #prefix: string;
  #seq = 0;
  #prev = GENESIS_HASH;

  constructor(options: RecordChainOptions = {}) {
    this.session = options.session ?? randomUUID();
    this.#pid = options.pid ?? process.pid;
    this.#now = options.now ?? (() => new Date());
    this.#prefix = `{"v":${AUDIT_FORMAT_VERSION},"session":${JSON.stringify(this.session)},"seq":`;
  }

  /** How many lines the chain has produced. */
  get length(): number {
    return this.#seq;
  }

  /**
   * Serializes the next record of the session and advances the chain. The header is written by
   * hand (it is the same shape on every line), which keeps the per-record cost low.
   */
  next<K extends RecordKind>(kind: K, fields: RecordFields<K>, turn: number): string {
    const ts = this.#now().toISOString();
    const head = `${this.#prefix}${this.#seq},"prev":"${this.#prev}","ts":"${ts}","kind":"${kind}","turn":${turn},"pid":${this.#pid}`;
    const rest = JSON.stringify(fields);
    const line = rest === "{}" ? `${head}}` : `${head},${rest.slice(1)}`;
    this.#prev = hashLine(line);
    this.#seq++;
    return line;
  }
}
