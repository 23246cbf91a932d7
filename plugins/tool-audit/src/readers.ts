// The audit readers (verify, stats, tail), a separate entry point so that loading the extension
// does not load them: `gatehouse audit` imports "@gatehouse/tool-audit/readers".
export { type AuditKey, AuditKeyError, readAuditKey } from "./audit-key.ts";
export { type AuditLocation, auditLocation, sealSegments } from "./audit-location.ts";
export { unusableLocation } from "./log-file.ts";
export { type AuditEntry, readRecords } from "./read-records.ts";
export { readSeals } from "./read-seals.ts";
export { type AuditStats, auditStats, type ToolStats } from "./stats.ts";
export { type TailOptions, type TailResult, tailAudit } from "./tail.ts";
export { verdictLabel } from "./verdict.ts";
export { type VerifyOptions, verifyAuditFile } from "./verify.ts";
export {
  type ProblemKind,
  type SessionSummary,
  VERDICT_EXIT_CODES,
  type Verdict,
  type VerifyProblem,
  type VerifyReport,
  type VerifyStatus,
} from "./verify-report.ts";
