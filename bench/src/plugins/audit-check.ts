import { auditLocation, readAuditKey, readRecords, verifyAuditFile } from "../../../plugins/tool-audit/src/readers.ts";

/**
 * Checks the audit log of one run of `calls` calls: verified with the home's key and seals
 * (verdict intact), one session, exactly `2 * calls + 2` records, and a `call_end` with outcome
 * "executed" for every call. Throws with what was wrong, so a broken audit never passes for a fast one.
 */
export async function checkAuditFile(log: { file: string; home: string; cwd: string }, calls: number): Promise<void> {
  const { file, keyFile, sealDir } = auditLocation(log);
  const report = await verifyAuditFile(file, { key: readAuditKey(keyFile), sealDir });
  if (report.verdict !== "intact") throw new Error(`audit ${file}: ${report.verdict}: ${report.summary}`);
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
