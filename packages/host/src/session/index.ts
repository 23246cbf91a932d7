export { type BuiltContext, NO_RESULT_TEXT, type OrphanedCall } from "./build-context.ts";
export { checkSession, type SessionCheck, type SessionProblem } from "./check-session.ts";
export { renderSessionTree } from "./render-tree.ts";
export { Session, type SessionOptions } from "./session.ts";
export type {
  BranchEntry,
  CompactionEntry,
  CustomEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionHeader,
} from "./session-format.ts";
export { SESSION_VERSION } from "./session-format.ts";
export type { SessionFsync } from "./session-writer.ts";
