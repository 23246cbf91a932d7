import { readRecords, verifyAuditFile } from "../../../plugins/tool-audit/src/readers.ts";

/**
 * Checks the audit file of one run of `calls` calls: a verified chain (status ok), one session,
 * exactly `2 * calls + 2` records, and a `call_end` with outcome "executed" for every call.
 * Throws with what was wrong, so a broken audit never passes for a fast one.
 */
export async function checkAuditFile(file: string, calls: number): Promise<void> {
  const report = await verifyAuditFile(file);
  if (report.status !== "ok") throw new Error(`audit ${file}: ${report.status}: ${report.summary}`);
  const expected = 2 * calls + 2;
  if (report.records !== expected || report.sessions.length !== 1) {
    throw new Error(
      `audit ${file}: ${report.records} records in ${report.sessions.length} sessions, expected ${expected} in 1`,
    );
  }
  let executed = 0;
  for await (const entry of readRecords(file)) {
    if (entry.ok && entry.record.kind === "call_end" && entry.record.outcome === "executed") executed++;
  }
  if (executed !== calls) throw new Error(`audit ${file}: ${executed} of ${calls} calls recorded as executed`);
}
