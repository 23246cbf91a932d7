import { createToolAudit } from "./extension.ts";

export { AuditRecorder, type AuditRecorderOptions, type LineSink } from "./audit-recorder.ts";
export {
  DEFAULT_AUDIT_FILE,
  resolveAuditFile,
  type ToolAuditConfig,
  toolAuditConfigSchema,
  toolAuditMergeRules,
} from "./config.ts";
export { createToolAudit, type ToolAuditOptions } from "./extension.ts";
export type {
  AuditRecord,
  CallEndRecord,
  CallStartRecord,
  FsyncMode,
  RecordedEffect,
  RecordKind,
  ResultSize,
  SessionEndRecord,
  SessionStartRecord,
} from "./record.ts";
export { AUDIT_FORMAT_VERSION, GENESIS_HASH, hashLine, parseRecord } from "./record.ts";
export {
  type ArgsRedactor,
  createRedactor,
  DEFAULT_VERBATIM,
  NEVER_VERBATIM,
  redactValue,
  type VerbatimFields,
} from "./redact.ts";
export { AuditSink, type AuditSinkOptions, type AuditWriteFailure, openAuditSink } from "./sink.ts";

/** The audit extension with its defaults, for `extensions: ["@gatehouse/tool-audit"]`. */
export default createToolAudit();
