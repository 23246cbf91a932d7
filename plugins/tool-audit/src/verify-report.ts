/**
 * What can be wrong with an audit file. `torn_last_line`: the final line has no newline or is not
 * JSON (a write cut short); `corrupt_line`: a line in the middle is not a record; `broken_chain`: a
 * record's `prev` does not match the hash of the previous record of its session (modified or
 * replaced); `reordered`: a seq out of order or repeated, or a record after its session's end
 * (reordered or inserted); `missing_records`: a gap in a session's seq (deleted records);
 * `unreadable`: the file could not be read at all.
 */
export type ProblemKind =
  | "torn_last_line"
  | "corrupt_line"
  | "broken_chain"
  | "reordered"
  | "missing_records"
  | "unreadable";

/** One problem, located at the line a person should look at. */
export interface VerifyProblem {
  kind: ProblemKind;
  /** 1-based line number (0 when the file could not be read). */
  line: number;
  session?: string;
  seq?: number;
  /** Where the problem became visible, when that is a later line (the next record of the session). */
  detectedAt?: number;
  message: string;
}

/** One session's chain as verify saw it. */
export interface SessionSummary {
  session: string;
  pid?: number;
  records: number;
  firstLine: number;
  lastLine: number;
  lastSeq: number;
  /** Whether its `session_end` was seen. */
  ended: boolean;
}

/** A session without `session_end`: the run did not close (killed, crashed, or still running). */
export interface IncompleteSession {
  session: string;
  pid?: number;
  lastSeq: number;
  lastLine: number;
  message: string;
}

/** `ok`: every chain intact and closed; `incomplete`: intact, but a run did not close; `failed`: tampering or corruption. */
export type VerifyStatus = "ok" | "incomplete" | "failed";

/** The result of `verifyAuditFile`. */
export interface VerifyReport {
  file: string;
  status: VerifyStatus;
  lines: number;
  records: number;
  sessions: SessionSummary[];
  /** The first problem by line; set exactly when `status` is "failed". */
  problem?: VerifyProblem;
  /** Problems in line order (at most the first 1000 found). */
  problems: VerifyProblem[];
  problemCount: number;
  incomplete: IncompleteSession[];
  /** A few lines for a person. */
  summary: string;
}

const LABEL: Record<ProblemKind, string> = {
  torn_last_line: "torn last line",
  corrupt_line: "corrupt line",
  broken_chain: "broken chain",
  reordered: "reordered/inserted",
  missing_records: "missing records",
  unreadable: "unreadable",
};

/** The human label of a problem kind ("broken chain", "reordered/inserted", …). */
export function problemLabel(kind: ProblemKind): string {
  return LABEL[kind];
}

/**
 * Renders a report for a person: the verdict first, then the first problem or the unclosed sessions.
 * Contract: pure; the first line always starts with the file and OK, INCOMPLETE or FAILED.
 */
export function summarizeReport(report: Omit<VerifyReport, "summary">): string {
  const scope = `${report.records} records in ${report.sessions.length} session${report.sessions.length === 1 ? "" : "s"}`;
  if (report.status === "failed" && report.problem) {
    const p = report.problem;
    const where = p.line > 0 ? ` at line ${p.line}` : "";
    const lines = [`${report.file}: FAILED${where}: ${problemLabel(p.kind)}: ${p.message}`];
    if (report.problemCount > 1) lines.push(`${report.problemCount - 1} more problem(s) after it (${scope}).`);
    else lines.push(`(${scope})`);
    return lines.join("\n");
  }
  if (report.status === "incomplete") {
    const lines = [
      `${report.file}: INCOMPLETE: every chain is intact, but ${report.incomplete.length} run(s) did not close (${scope}).`,
    ];
    for (const s of report.incomplete) lines.push(`  ${s.message}`);
    return lines.join("\n");
  }
  return `${report.file}: OK: ${scope}, every chain intact and closed.`;
}
