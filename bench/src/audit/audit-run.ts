import { rmSync } from "node:fs";
import {
  AuditRecorder,
  type AuditWriteFailure,
  createRedactor,
  DEFAULT_VERBATIM,
  type FsyncMode,
  openAuditSink,
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
  /** Calls per turn: the extension flushes (and, in batch mode, fsyncs) at every turn end. */
  callsPerTurn: number;
  cwd: string;
}

/**
 * Records one session the way the tool-audit extension does (session_start and a flush, then per
 * turn: turnStart, a call_start/call_end pair per call, a flush; session_end and close), timed.
 * Contract: throws unless the sink stayed healthy, dropped nothing, and `verifyAuditFile` reports
 * status ok with exactly `2 * calls + 2` records in one session. The file is removed afterwards.
 */
export async function auditRun(options: AuditRunOptions): Promise<AuditRun> {
  const { file, calls } = options;
  let failure: AuditWriteFailure | undefined;
  const sink = openAuditSink({ file, fsync: options.fsync, onError: (f) => (failure = f) });
  if (!(await sink.ready())) throw new Error(`audit ${file} cannot be opened: ${failure?.message}`);
  const recorder = new AuditRecorder({
    sink,
    cwd: options.cwd,
    config: { fsync: options.fsync, onWriteError: "stop" },
    redact: createRedactor({ verbatim: DEFAULT_VERBATIM }),
    gatehouse: "bench",
  });

  const start = performance.now();
  recorder.start();
  await sink.flush();
  for (let first = 0; first < calls.length; first += options.callsPerTurn) {
    recorder.turnStart();
    const turn = calls.slice(first, first + options.callsPerTurn);
    for (const call of turn) recorder.callStart(call.start);
    for (const call of turn) recorder.callEnd(call.end);
    await sink.flush();
  }
  recorder.end();
  await sink.close();
  const writeMs = performance.now() - start;

  if (failure || sink.dropped > 0) throw new Error(`audit ${file}: ${failure?.message ?? `${sink.dropped} dropped`}`);
  const verifyStart = performance.now();
  const report = await verifyAuditFile(file);
  const verifyMs = performance.now() - verifyStart;
  const expected = 2 * calls.length + 2;
  if (report.status !== "ok" || report.records !== expected || report.sessions.length !== 1) {
    throw new Error(`audit ${file}: ${report.status}, ${report.records} of ${expected} records: ${report.summary}`);
  }
  rmSync(file, { force: true });
  return { records: expected, writeMs, verifyMs };
}
