import { createToolAudit } from "./extension.ts";

export { type AuditKey, AuditKeyError, keyFromSecret, loadOrCreateAuditKey, readAuditKey } from "./audit-key.ts";
export { type AuditLocation, auditLocation, insideWorkspace } from "./audit-location.ts";
export { AuditRecorder, type AuditRecorderOptions, type LineSink } from "./audit-recorder.ts";
export { AuditSession, type AuditSessionOptions, openAuditSession } from "./audit-session.ts";
export { type ToolAuditConfig, toolAuditConfigSchema, toolAuditMergeRules } from "./config.ts";
export { createToolAudit, type ToolAuditOptions } from "./extension.ts";
export {
  type ExternalCallEvent,
  type ExternalCallsOptions,
  type ExternalCallsResult,
  recordExternalCalls,
} from "./external-calls.ts";
export type {
  AuditRecord,
  CallEndRecord,
  CallStartRecord,
  FsyncMode,
  GapRecord,
  RecordedEffect,
  RecordKind,
  ResultSize,
  SessionEndRecord,
  SessionStartRecord,
} from "./record.ts";
export { AUDIT_FORMAT_VERSION, GENESIS_HASH, macOf, parseRecord } from "./record.ts";
export {
  type ArgsRedactor,
  createRedactor,
  DEFAULT_VERBATIM,
  NEVER_VERBATIM,
  redactValue,
  type VerbatimFields,
} from "./redact.ts";
export { SEAL_FORMAT_VERSION, type Seal } from "./seal.ts";
export { scrubSecrets } from "./secret-scrub.ts";
export {
  AuditSink,
  type AuditSinkOptions,
  type AuditWriteFailure,
  type OnFileReplaced,
  openAuditSink,
} from "./sink.ts";

/** The audit extension with its defaults, for `extensions: ["@gatehouse/tool-audit"]`. */
export default createToolAudit();
