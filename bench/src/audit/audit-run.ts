import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import {
  type AuditWriteFailure,
  createRedactor,
  DEFAULT_VERBATIM,
  type FsyncMode,
  keyFromSecret,
  openAuditSession,
} from "../../../plugins/tool-audit/src/index.ts";
import { verifyAuditFile } from "../../../plugins/tool-audit/src/readers.ts";
import type { AuditedCall } from "./calls.ts";

/** One timed session of the audit: how many records, how long writing and verifying took. */
export interface AuditRun {
  records: number;
  /** From the first record written to the file flushed, fsynced and closed. */
  writeMs: number;
  /** `verifyAuditFile` over the whole file. */
  verifyMs: number;
}

/** Options of one audit run. */
export interface AuditRunOptions {
  file: string;
  fsync: FsyncMode;
  calls: readonly AuditedCall[];
  /** Calls per turn: the batch is written and sealed at every turn end. */
  callsPerTurn: number;
  /** Also fsync at every turn end (the bench's historical workload); the extension fsyncs at most once a second. */
  fsyncEachTurn: boolean;
  cwd: string;
}

/**
 * Records one session the way the tool-audit extension does (open: session_start, committed and
 * sealed; then per turn: turnStart, a call_start/call_end pair per call, a commit that writes the
 * batch and seals it, and with `fsyncEachTurn` an fsync; close: session_end, fsync, final seal), timed. Every record is MAC-ed and
 * scrubbed as in a real run.
 * Contract: throws unless the sink stayed healthy, dropped nothing, and `verifyAuditFile` (with
 * the key and seals) says intact with exactly `2 * calls + 2` records in one session. The file and
 * its seals are removed afterwards.
 */
export async function auditRun(options: AuditRunOptions): Promise<AuditRun> {
  const { file, calls } = options;
  const key = keyFromSecret(randomBytes(32), "bench.key");
  const sealDir = `${file}.seals`;
  let failure: AuditWriteFailure | undefined;

  const start = performance.now();
  const session = openAuditSession({
    file,
    sealDir,
    key,
    fsync: options.fsync,
    onError: (f) => (failure = f),
    cwd: options.cwd,
    config: { fsync: options.fsync, onWriteError: "stop" },
    redact: createRedactor({ verbatim: DEFAULT_VERBATIM }),
    gatehouse: "bench",
  });
  const { recorder, sink } = session;
  for (let first = 0; first < calls.length; first += options.callsPerTurn) {
    recorder.turnStart();
    const turn = calls.slice(first, first + options.callsPerTurn);
    for (const call of turn) recorder.callStart(call.start);
    for (const call of turn) recorder.callEnd(call.end);
    // Each turn's batch is written and sealed, as at turn_end; fsynced too in the historical workload.
    session.commit();
    if (options.fsyncEachTurn) await sink.flush();
  }
  await session.close();
  const writeMs = performance.now() - start;

  if (failure || sink.dropped > 0) throw new Error(`audit ${file}: ${failure?.message ?? `${sink.dropped} dropped`}`);
  const verifyStart = performance.now();
  const report = await verifyAuditFile(file, { key, sealDir });
  const verifyMs = performance.now() - verifyStart;
  const expected = 2 * calls.length + 2;
  if (report.verdict !== "intact" || report.records !== expected || report.sessions.length !== 1) {
    throw new Error(`audit ${file}: ${report.verdict}, ${report.records} of ${expected} records: ${report.summary}`);
  }
  rmSync(file, { force: true });
  rmSync(sealDir, { recursive: true, force: true });
  return { records: expected, writeMs, verifyMs };
}
