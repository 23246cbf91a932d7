import { randomUUID } from "node:crypto";
import type { AuditKey } from "./audit-key.ts";
import { AuditRecorder, type AuditRecorderOptions } from "./audit-recorder.ts";
import { SealWriter } from "./seal-store.ts";
import { type AuditSink, type AuditSinkOptions, openAuditSink } from "./sink.ts";

/** Options of `openAuditSession`. */
export interface AuditSessionOptions
  extends Omit<AuditSinkOptions, "onReopened">,
    Omit<AuditRecorderOptions, "sink" | "ordinal" | "settled" | "key"> {
  key: AuditKey;
  /** The folder of this log's seals (private, outside the workspace). */
  sealDir: string;
  /** True when the session starts in the middle of a run (e.g. after a hot reload). */
  midRun?: boolean;
  /** Sessions per bucket of folded seals (default `SEALS_PER_BUCKET`, 256). */
  sealsPerBucket?: number;
}

/**
 * One audited run: the log's sink, the session's recorder and its seal, kept in step.
 * Contract: `open` writes `session_start` and commits it (so an unwritable log or seal folder is
 * found before any tool runs). Each `commit` hands the batch to the kernel and then replaces the
 * seal with the session's record count and head MAC; `close` writes `session_end` and the closing
 * seal at once, then fsyncs both and closes the files; its fsyncs wait on the thread pool, not on
 * the main thread (other hosts in the process go on meanwhile). A seal that cannot be written is a write
 * failure of the sink (`op: "seal"`), so the audit fails closed the same way.
 */
export class AuditSession {
  readonly sink: AuditSink;
  readonly recorder: AuditRecorder;
  readonly #seals: SealWriter | undefined;
  readonly #key: AuditKey;

  private constructor(sink: AuditSink, recorder: AuditRecorder, seals: SealWriter | undefined, key: AuditKey) {
    this.sink = sink;
    this.recorder = recorder;
    this.#seals = seals;
    this.#key = key;
  }

  /** Opens the log, allocates the seal, writes and commits `session_start`. */
  static open(options: AuditSessionOptions): AuditSession {
    let recorder: AuditRecorder | undefined;
    const sink = openAuditSink({
      ...options,
      // The lost file's records are gone: say so in the new one, as the session's next record.
      onReopened: (cause, lost) => void recorder?.gap(cause, lost),
    });
    let seals: SealWriter | undefined;
    if (sink.healthy) {
      try {
        seals = SealWriter.open({
          dir: options.sealDir,
          key: options.key.seals,
          keyId: options.key.id,
          log: options.file,
          session: options.chain?.session ?? randomUUID(),
          ...(options.sealsPerBucket !== undefined ? { perBucket: options.sealsPerBucket } : {}),
        });
      } catch (error) {
        sink.fail("seal", error);
      }
    }
    recorder = new AuditRecorder({
      ...options,
      sink,
      chain: { ...options.chain, ...(seals ? { session: seals.session } : {}) },
      ...(seals ? { ordinal: seals.ordinal, settled: seals.settled } : {}),
      ...(seals?.previous ? { previous: seals.previous } : {}),
      ...(seals ? { finished: seals.finished, logId: seals.logId } : {}),
    });
    const session = new AuditSession(sink, recorder, seals, options.key);
    recorder.start(options.midRun ? { midRun: true } : {});
    session.commit();
    return session;
  }

  /** The key id of the session's MACs. */
  get keyId(): string {
    return this.#key.id;
  }

  /** Writes the next seal (in the kernel) and returns its line; a failure is the sink's. */
  #writeSeal(closed: boolean): string | undefined {
    if (!this.#seals || !this.sink.healthy) return undefined;
    const { count, head } = this.recorder.chainState;
    try {
      return this.#seals.update({ count, head, closed });
    } catch (error) {
      this.sink.fail("seal", error);
      return undefined;
    }
  }

  #seal(): void {
    const line = this.#writeSeal(false);
    if (line !== undefined) this.sink.shipOnly(line);
  }

  /**
   * The last seal: the session closed, written into both slots: a closed session then has no older
   * slot left that says it was still running, so blanking the newer slot (and cutting
   * `session_end`) cannot pass a finished run off as a crash; a torn second write leaves the first.
   * Returns the seal's line, or undefined when it could not be written (a failure of the sink).
   */
  #sealClosed(): string | undefined {
    if (this.#writeSeal(true) === undefined) return undefined;
    return this.#writeSeal(true);
  }

  /** Hands the batch to the kernel and seals what was written. Returns the sink's health. */
  commit(): boolean {
    if (this.sink.commit()) this.#seal();
    return this.sink.healthy;
  }

  /**
   * Ends the session. Before the first await, `session_end` is handed to the kernel and then the
   * closing seal (so a killed process loses nothing, and a reader sees the session closed as soon
   * as this is called); the promise settles once the log and then the seal are fsynced and both
   * files are closed. Resolves with the sink's health.
   */
  async close(): Promise<boolean> {
    this.recorder.end();
    const line = this.sink.commit() ? this.#sealClosed() : undefined;
    if ((await this.sink.flush()) && line !== undefined) {
      try {
        await this.#seals?.sync();
        this.sink.shipOnly(line);
      } catch (error) {
        this.sink.fail("seal", error);
      }
    }
    try {
      this.#seals?.close();
    } catch (error) {
      this.sink.fail("seal", error);
    }
    return this.sink.close();
  }
}

/** Opens an audited session (see `AuditSession`). */
export function openAuditSession(options: AuditSessionOptions): AuditSession {
  return AuditSession.open(options);
}
