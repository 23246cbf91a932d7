import type { ToolExecutionEndEvent, ToolOutcome } from "@gatehouse/sdk";
import { type ArgsSnapshot, argsChanged, snapshotArgs } from "./args-snapshot.ts";
import type { AuditKey } from "./audit-key.ts";
import { keepLayout } from "./keep-layout.ts";
import { monotonicMs } from "./monotonic-ms.ts";
import type { RecordFields, RecordKind, SessionStartRecord } from "./record.ts";
import { RecordChain, type RecordChainOptions } from "./record-chain.ts";
import { capReason, recordedEffects, resultSize } from "./summarize-call.ts";

/** Where the recorder puts its lines; `false` means the line could not be written. */
export interface LineSink {
  write(line: string): boolean;
}

/** Options of an audit recorder (one per session). */
export interface AuditRecorderOptions {
  sink: LineSink;
  cwd: string;
  config: SessionStartRecord["config"];
  /** Redacts one call's arguments (see `createRedactor`). */
  redact: (tool: string, args: unknown) => unknown;
  gatehouse?: string | undefined;
  /** The key the session's records are MAC-ed with; its id goes into `session_start`. */
  key: AuditKey;
  /** The session's number among its log's sessions and the finished prefix (see `SessionStartRecord`). */
  ordinal?: number;
  settled?: number;
  /** The previous session's seal as this one started (see `SessionStartRecord.previous`). */
  previous?: SessionStartRecord["previous"];
  /** The other sessions that finished since the previous one started (see `SessionStartRecord.finished`). */
  finished?: SessionStartRecord["finished"];
  /** The log's id (see `SessionStartRecord.logId`). */
  logId?: string;
  chain?: Omit<RecordChainOptions, "key">;
  /** A monotonic clock in ms for durations; default `monotonicMs`. */
  clock?: () => number;
}

type OpenCall = { startedAt: number; args: ArgsSnapshot };

/**
 * Turns the events of one run into the records of one session and writes them in order.
 * Contract: synchronous; each method writes exactly one record. Starts and ends pair by
 * `toolCallId` (duplicate ids pair last-in, first-out). Nothing but redacted arguments, lengths,
 * paths and policy reasons reaches the sink.
 */
export class AuditRecorder {
  /** The session id of every record. */
  readonly session: string;
  readonly #options: AuditRecorderOptions;
  readonly #chain: RecordChain;
  readonly #clock: () => number;
  readonly #open = new Map<string, OpenCall[]>();
  readonly #outcomes: Partial<Record<ToolOutcome, number>> = {};
  #turn = 0;
  #calls = 0;
  #ended = 0;
  #closed = false;

  constructor(options: AuditRecorderOptions) {
    this.#options = options;
    this.#chain = new RecordChain({ ...options.chain, key: options.key.records });
    this.session = this.#chain.session;
    this.#clock = options.clock ?? monotonicMs;
  }

  /** How many records the session has produced, and the MAC of the last one: what a seal holds. */
  get chainState(): { count: number; head: string } {
    return { count: this.#chain.length, head: this.#chain.head };
  }

  /** Whether `end()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  #write<K extends RecordKind>(kind: K, fields: RecordFields<K>): boolean {
    return this.#options.sink.write(this.#chain.next(kind, fields, this.#turn));
  }

  /** Writes `session_start`; `midRun` when the run was already going (e.g. after a hot reload). */
  start(options: { midRun?: boolean } = {}): boolean {
    const fields: RecordFields<"session_start"> = { cwd: this.#options.cwd, config: this.#options.config };
    if (this.#options.gatehouse !== undefined) fields.gatehouse = this.#options.gatehouse;
    fields.keyId = this.#options.key.id;
    if (this.#options.ordinal !== undefined) fields.ordinal = this.#options.ordinal;
    if (this.#options.settled !== undefined) fields.settled = this.#options.settled;
    if (this.#options.previous !== undefined) fields.previous = this.#options.previous;
    if (this.#options.finished !== undefined && this.#options.finished.length > 0) {
      fields.finished = this.#options.finished;
    }
    if (this.#options.logId !== undefined) fields.logId = this.#options.logId;
    if (options.midRun) fields.midRun = true;
    return this.#write("session_start", fields);
  }

  /** Counts a `turn_start`; records written afterwards carry the new turn number. */
  turnStart(): void {
    this.#turn++;
  }

  /** Writes `call_start` with the redacted requested arguments. */
  callStart(event: { toolCallId: string; toolName: string; args: unknown }): boolean {
    const open = this.#open.get(event.toolCallId) ?? [];
    open.push({ startedAt: this.#clock(), args: snapshotArgs(event.args) });
    this.#open.set(event.toolCallId, open);
    this.#calls++;
    const args = this.#options.redact(event.toolName, event.args);
    return this.#write("call_start", { toolCallId: event.toolCallId, tool: event.toolName, args });
  }

  /**
   * Writes `call_end`: outcome, block reason, duration, result size, effect paths. `startedIn`
   * pairs it with a `call_start` written by another session (another agent's hook processes): that
   * session's id and the start's wall-clock time.
   */
  callEnd(event: ToolExecutionEndEvent, startedIn?: { session: string; startedAtMs: number }): boolean {
    const open = this.#open.get(event.toolCallId);
    const started = open?.pop();
    if (open && open.length === 0) this.#open.delete(event.toolCallId);
    this.#ended++;
    this.#outcomes[event.outcome] = (this.#outcomes[event.outcome] ?? 0) + 1;
    const changed = started !== undefined && argsChanged(started.args, event.args);
    // Built field by field (no spread of temporary objects), in the order the format lists them.
    const fields = {
      toolCallId: event.toolCallId,
      tool: event.toolName,
      outcome: event.outcome,
      isError: event.isError,
    } as RecordFields<"call_end">;
    if (typeof event.blockedBy === "string") fields.blockedBy = event.blockedBy;
    if (typeof event.reason === "string") fields.reason = capReason(event.reason);
    if (started) fields.durationMs = Math.round((this.#clock() - started.startedAt) * 1000) / 1000;
    else if (startedIn) {
      fields.startSession = startedIn.session;
      fields.durationMs = Math.max(0, Date.now() - startedIn.startedAtMs);
    }
    fields.resultSize = resultSize(event.result);
    if (Array.isArray(event.effects)) fields.paths = recordedEffects(event.effects);
    if (changed) fields.args = this.#options.redact(event.toolName, event.args);
    return this.#write("call_end", fields);
  }

  /** Writes a `gap` record: the session's first `lost` records went to a file that was lost. */
  gap(cause: string, lost: number): boolean {
    return this.#write("gap", { cause, lost });
  }

  /** Writes `session_end` with the session's counts; later calls write nothing. */
  end(): boolean {
    if (this.#closed) return true;
    this.#closed = true;
    let unfinished = 0;
    for (const open of this.#open.values()) unfinished += open.length;
    const counts = { calls: this.#calls, ended: this.#ended, unfinished, outcomes: { ...this.#outcomes } };
    const written = this.#write("session_end", { counts });
    // Ended: it stays as the keeper of its layout and its chain's (see keepLayout).
    this.#open.clear();
    keepLayout("recorder", this);
    return written;
  }
}
