// The audit readers (verify, stats, tail), a separate entry point so that loading the extension
// does not load them: `gatehouse audit` imports "@gatehouse/tool-audit/readers".
export { DEFAULT_AUDIT_FILE, resolveAuditFile } from "./config.ts";
export { type AuditEntry, readRecords } from "./read-records.ts";
export { type AuditStats, auditStats, type ToolStats } from "./stats.ts";
export { type TailOptions, type TailResult, tailAudit } from "./tail.ts";
export { verifyAuditFile } from "./verify.ts";
export type {
  IncompleteSession,
  ProblemKind,
  SessionSummary,
  VerifyProblem,
  VerifyReport,
  VerifyStatus,
} from "./verify-report.ts";
