/**
 * What can be wrong with an audit log, each located at a line (0 for the log as a whole):
 * - `modified`: a record's content or MAC does not match (edited, forged, or MAC-ed with another key);
 * - `inserted`: a record repeated, or after its session's end;
 * - `missing_records`: a gap in the middle of a session (records deleted);
 * - `corrupt_line`: a line that is not a record; `torn_last_line`: a last line cut short;
 * - `reordered`: records of a session, or whole sessions, out of the order they were written in;
 * - `truncated`: a session has fewer records at its end than its seal vouches for;
 * - `session_deleted`: a sealed session is not in the log (or its number is missing everywhere);
 * - `seal_missing` / `seal_invalid`: a session's seal was deleted, or does not verify;
 * - `foreign_key`: a session was MAC-ed with another key than the one verify was given;
 * - `log_missing` / `log_emptied` / `log_replaced`: sealed sessions exist but the log is gone,
 *   empty, or holds none of them; `gap_recorded`: the sink found its file replaced mid-run and
 *   reopened it (configured), so records of that session are lost;
 * - `unsealed_tail`: a session did not close (a killed run): its sealed part verifies, what
 *   follows the last seal is not vouched for (a warning, not tampering);
 * - `unreadable`: the log or the seal folder could not be read.
 */
export type ProblemKind =
  | "modified"
  | "inserted"
  | "missing_records"
  | "corrupt_line"
  | "torn_last_line"
  | "reordered"
  | "truncated"
  | "session_deleted"
  | "seal_missing"
  | "seal_invalid"
  | "foreign_key"
  | "log_missing"
  | "log_emptied"
  | "log_replaced"
  | "gap_recorded"
  | "unsealed_tail"
  | "unreadable";

/** One problem, located at the line a person should look at. */
export interface VerifyProblem {
  kind: ProblemKind;
  /** 1-based line number (0 when it concerns the log as a whole or a seal). */
  line: number;
  session?: string;
  seq?: number;
  /** Where the problem became visible, when that is a later line (the next record of the session). */
  detectedAt?: number;
  /** The seal file concerned, if any. */
  seal?: string;
  message: string;
}

/** One session's chain as verify saw it. */
export interface SessionSummary {
  session: string;
  pid?: number;
  ordinal?: number;
  keyId?: string;
  records: number;
  firstLine: number;
  lastLine: number;
  lastSeq: number;
  /** Whether its `session_end` was seen. */
  ended: boolean;
  /** Its seal's record count, when a seal was found. */
  sealed?: number;
}

/**
 * The verdict, with its exit code of `gatehouse audit verify`:
 * `intact` 0 · `unsealed_tail` 3 (a run was killed; the sealed part verifies) ·
 * `unauthenticated` 4 (no key: the structure is intact, but records could be forged) ·
 * `no_log` 5 (no records and no seals yet) · `tampered` 6 (a record modified, inserted, deleted
 * from the middle, a corrupt line, a seal deleted or forged) · `truncated` 7 · `session_deleted` 8 ·
 * `replaced` 9 (the log emptied, deleted or replaced) · `reordered` 10 · `unreadable` 1.
 */
export type Verdict =
  | "intact"
  | "unsealed_tail"
  | "unauthenticated"
  | "no_log"
  | "tampered"
  | "truncated"
  | "session_deleted"
  | "replaced"
  | "reordered"
  | "unreadable";

/** The exit code of `gatehouse audit verify` for each verdict (documented in the README). */
export const VERDICT_EXIT_CODES: Readonly<Record<Verdict, number>> = {
  intact: 0,
  unreadable: 1,
  unsealed_tail: 3,
  unauthenticated: 4,
  no_log: 5,
  tampered: 6,
  truncated: 7,
  session_deleted: 8,
  replaced: 9,
  reordered: 10,
};

/** `ok`: intact; `incomplete`: a run did not close, or no key; `failed`: tampering or corruption. */
export type VerifyStatus = "ok" | "incomplete" | "failed";

/** The result of `verifyAuditFile`. */
export interface VerifyReport {
  file: string;
  verdict: Verdict;
  status: VerifyStatus;
  /** Whether records and seals were authenticated with a key (false: structure only). */
  authenticated: boolean;
  /** The seal folder compared with the log; undefined when seals were not checked. */
  sealDir?: string;
  seals: number;
  lines: number;
  records: number;
  sessions: SessionSummary[];
  /** The problem that decided the verdict. */
  problem?: VerifyProblem;
  /** Problems in line order (at most the first 1000 found), warnings included. */
  problems: VerifyProblem[];
  problemCount: number;
  /** A few lines for a person. */
  summary: string;
}
