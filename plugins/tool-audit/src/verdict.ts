import type { LogState } from "./seal-check.ts";
import type {
  ProblemKind,
  SessionSummary,
  Verdict,
  VerifyProblem,
  VerifyReport,
  VerifyStatus,
} from "./verify-report.ts";

const VERDICT_OF: Record<Exclude<ProblemKind, "torn_last_line">, Verdict> = {
  modified: "tampered",
  inserted: "tampered",
  missing_records: "tampered",
  corrupt_line: "tampered",
  seal_missing: "tampered",
  seal_invalid: "tampered",
  foreign_key: "tampered",
  reordered: "reordered",
  truncated: "truncated",
  session_deleted: "session_deleted",
  log_missing: "replaced",
  log_emptied: "replaced",
  log_replaced: "replaced",
  gap_recorded: "replaced",
  unsealed_tail: "unsealed_tail",
  unreadable: "unreadable",
};

/** Which verdict wins when several apply: what concerns the most records first. */
const PRECEDENCE: readonly Verdict[] = [
  "replaced",
  "session_deleted",
  "truncated",
  "reordered",
  "tampered",
  "unreadable",
  "unsealed_tail",
];

const LABEL: Record<Verdict, string> = {
  intact: "INTACT",
  unsealed_tail: "UNSEALED TAIL",
  unauthenticated: "NOT AUTHENTICATED (no key)",
  no_log: "NO AUDIT LOG",
  tampered: "TAMPERED",
  truncated: "TRUNCATED",
  session_deleted: "SESSION DELETED",
  replaced: "LOG EMPTIED OR REPLACED",
  reordered: "REORDERED",
  unreadable: "UNREADABLE",
};

const STATUS: Record<Verdict, VerifyStatus> = {
  intact: "ok",
  unsealed_tail: "incomplete",
  unauthenticated: "incomplete",
  no_log: "incomplete",
  tampered: "failed",
  truncated: "failed",
  session_deleted: "failed",
  replaced: "failed",
  reordered: "failed",
  unreadable: "failed",
};

/** The human label of a verdict ("TAMPERED", "UNSEALED TAIL", …). */
export function verdictLabel(verdict: Verdict): string {
  return LABEL[verdict];
}

/** What `decideVerdict` needs: everything verify found. */
export interface VerdictInput {
  file: string;
  authenticated: boolean;
  sealDir?: string;
  seals: number;
  lines: number;
  records: number;
  state: LogState;
  sessions: SessionSummary[];
  problems: VerifyProblem[];
  problemCount: number;
}

/** A torn last line is the crash that left a tail unsealed, or part of a truncation; alone, tampering. */
function verdictOf(problem: VerifyProblem, kinds: ReadonlySet<ProblemKind>): Verdict | undefined {
  if (problem.kind !== "torn_last_line") return VERDICT_OF[problem.kind];
  if (kinds.has("truncated") || kinds.has("unsealed_tail")) return undefined;
  return "tampered";
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Decides the verdict from the problems found and writes the report's summary.
 * Contract: pure. The verdict is the first of `PRECEDENCE` that a problem calls for; with none,
 * `no_log` for a log without records or seals, `unauthenticated` without a key, else `intact`.
 */
export function decideVerdict(input: VerdictInput): VerifyReport {
  const kinds = new Set(input.problems.map((p) => p.kind));
  const called = input.problems.map((p) => ({ problem: p, verdict: verdictOf(p, kinds) }));
  let verdict: Verdict | undefined = PRECEDENCE.find((v) => called.some((c) => c.verdict === v));
  const decisive = verdict ? called.find((c) => c.verdict === verdict)?.problem : undefined;
  const quiet = input.records === 0 && input.seals === 0 && input.state !== "present";
  if (!verdict) verdict = quiet ? "no_log" : input.authenticated ? "intact" : "unauthenticated";
  // An unsealed tail without a key: the sealed part cannot be vouched for either.
  if (verdict === "unsealed_tail" && !input.authenticated) verdict = "unauthenticated";
  const { state: _state, ...rest } = input;
  const report: Omit<VerifyReport, "summary"> = { ...rest, verdict, status: STATUS[verdict] };
  if (decisive) report.problem = decisive;
  return { ...report, summary: summarize(report, input.state) };
}

function summarize(report: Omit<VerifyReport, "summary">, state: LogState): string {
  const scope = `${plural(report.records, "record")} in ${plural(report.sessions.length, "session")}${report.sealDir === undefined ? ", seals not checked" : `, ${plural(report.seals, "seal")}`}`;
  const head = `${report.file}: ${LABEL[report.verdict]}`;
  const p = report.problem;
  const more =
    report.problemCount > 1
      ? [`${report.problemCount - 1} more finding(s) (${scope}); --json lists them.`]
      : [`(${scope})`];
  switch (report.verdict) {
    case "intact":
      return `${head}: ${scope}; every MAC, chain and seal verified.`;
    case "no_log":
      return `${head}: ${state === "missing" ? "the log does not exist" : "the log is empty"} and nothing was sealed: no run has been audited here yet.`;
    case "unauthenticated": {
      const lines = [
        `${head}: the structure is intact (${scope}), but without the key a rewritten or forged log would look the same. Pass --key FILE to authenticate.`,
      ];
      for (const u of report.problems.filter((x) => x.kind === "unsealed_tail")) lines.push(`  ${u.message}`);
      return lines.join("\n");
    }
    case "unsealed_tail": {
      const lines = [`${head}: every sealed record verifies, but a run did not close (${scope}).`];
      for (const u of report.problems.filter((x) => x.kind === "unsealed_tail")) lines.push(`  ${u.message}`);
      return lines.join("\n");
    }
    default: {
      const where = p && p.line > 0 ? ` at line ${p.line}` : "";
      return [`${head}${where}: ${p?.message ?? "see the findings"}`, ...more].join("\n");
    }
  }
}
