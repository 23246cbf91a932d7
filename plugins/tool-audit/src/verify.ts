import { ChainChecker } from "./chain-checker.ts";
import { readLines } from "./read-lines.ts";
import { hashLine, parseRecord } from "./record.ts";
import { summarizeReport, type VerifyProblem, type VerifyReport, type VerifyStatus } from "./verify-report.ts";

const MAX_LISTED = 1000;

/** Collects problems: every one is counted, the first by line is always kept, the list is capped. */
class ProblemLog {
  readonly list: VerifyProblem[] = [];
  first: VerifyProblem | undefined;
  count = 0;

  add = (problem: VerifyProblem): void => {
    this.count++;
    if (!this.first || problem.line < this.first.line) this.first = problem;
    if (this.list.length < MAX_LISTED) this.list.push(problem);
  };
}

/**
 * Verifies an audit file: every line a record, every session's hash chain intact and contiguous.
 * Streams the file line by line, so large files are fine.
 * Contract: never throws; `failed` (with the first problem by line) for corruption or tampering,
 * `incomplete` when every chain is intact but a session has no `session_end` (a killed run),
 * else `ok`. A final line without a newline, or that is not JSON, is a torn last line: never ok.
 * Known limit: records after the last one of a session carry no hash of it, so removing whole
 * sessions' tails shows up only as `incomplete`, and a writer that recomputes every later hash
 * can rewrite history undetected (the chain has no secret).
 */
export async function verifyAuditFile(file: string): Promise<VerifyReport> {
  const log = new ProblemLog();
  const checker = new ChainChecker(log.add);
  let lines = 0;
  let records = 0;
  // A line that is not JSON is torn if it turns out to be the last one, corrupt otherwise.
  let unparsed: { line: number; error: string } | undefined;
  try {
    for await (const raw of readLines(file)) {
      lines = raw.line;
      if (unparsed) log.add({ kind: "corrupt_line", line: unparsed.line, message: `not a record: ${unparsed.error}` });
      unparsed = undefined;
      if (!raw.terminated) {
        const message = `the last line has no newline (${raw.bytes.length} bytes): a write was cut short`;
        log.add({ kind: "torn_last_line", line: raw.line, message });
        continue;
      }
      if (raw.bytes.length === 0) {
        log.add({ kind: "corrupt_line", line: raw.line, message: "empty line" });
        continue;
      }
      const parsed = parseRecord(raw.bytes.toString("utf8"));
      if (parsed.ok) {
        records++;
        checker.check(parsed.record, raw.line, hashLine(raw.bytes));
      } else if (parsed.syntax) unparsed = { line: raw.line, error: parsed.error };
      else log.add({ kind: "corrupt_line", line: raw.line, message: `not an audit record: ${parsed.error}` });
    }
    if (unparsed) {
      const message = `the last line is not valid JSON: a write was cut short (${unparsed.error})`;
      log.add({ kind: "torn_last_line", line: unparsed.line, message });
    }
  } catch (error) {
    log.add({ kind: "unreadable", line: 0, message: `cannot read the file: ${(error as Error).message}` });
  }
  const { sessions, incomplete } = checker.finish();
  const status: VerifyStatus = log.first ? "failed" : incomplete.length > 0 ? "incomplete" : "ok";
  const problems = [...log.list].sort((a, b) => a.line - b.line);
  const report: Omit<VerifyReport, "summary"> = {
    file,
    status,
    lines,
    records,
    sessions,
    problems,
    problemCount: log.count,
    incomplete,
  };
  if (log.first) report.problem = log.first;
  return { ...report, summary: summarizeReport(report) };
}
