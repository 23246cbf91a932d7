import { statSync } from "node:fs";
import type { AuditKey } from "./audit-key.ts";
import { ChainChecker, type SessionClaim, short } from "./chain-checker.ts";
import { checkClaims, checkPredecessors } from "./claim-check.ts";
import { readLogId } from "./log-id.ts";
import { readLines } from "./read-lines.ts";
import { readSeals, type SealEntry } from "./read-seals.ts";
import { macOf, parseRecord } from "./record.ts";
import { checkOrigin, checkSessionOrder, compareSeals, type LogState } from "./seal-check.ts";
import { decideVerdict } from "./verdict.ts";
import type { VerifyProblem, VerifyReport } from "./verify-report.ts";

const MAX_LISTED = 1000;

/** Decodes a line's bytes, refusing invalid UTF-8: a lenient decode maps different bytes to one text, which would then verify. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Options of `verifyAuditFile`. */
export interface VerifyOptions {
  /** The key to authenticate records and seals with; without it only the structure is checked. */
  key?: AuditKey | undefined;
  /** The log's seal folder; without it the seals are not compared (the report says so). */
  sealDir?: string | undefined;
  /**
   * The log the seals were written for (what each seal names): default the verified file itself;
   * `false` for a copy verified against the original's seals (then the seals must all name one log).
   */
  logPath?: string | false | undefined;
  /**
   * The project whose own log this is (its per-project log in the Gatehouse home): every session
   * must have run there. Leave it out for a log several projects share (a configured `file`).
   */
  project?: string | undefined;
}

/** Collects problems: every one is counted, the list is capped. */
class ProblemLog {
  readonly list: VerifyProblem[] = [];
  count = 0;

  add = (problem: VerifyProblem): void => {
    this.count++;
    if (this.list.length < MAX_LISTED) this.list.push(problem);
  };
}

/** Why the log cannot be relied on as it is: other users may write it (not checked on Windows). */
function openToOthers(file: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || (stat.mode & 0o022) === 0) return undefined;
  const mode = (stat.mode & 0o777).toString(8);
  return `${file} is writable by other users (mode ${mode}): anyone could rewrite it; run chmod 600 on it`;
}

/**
 * Looks up the records claims are about that the first read no longer held (a session that wrote
 * many records while another started): one more streamed read, parsing only the lines of those
 * sessions. A record not found leaves its claim unanswered (its absence is reported elsewhere).
 */
async function findClaimedRecords(file: string, claims: readonly SessionClaim[]): Promise<void> {
  if (claims.length === 0) return;
  const wanted = new Map<string, Map<number, SessionClaim[]>>();
  for (const claim of claims) {
    if (claim.target === undefined) continue;
    const bySeq = wanted.get(claim.target) ?? new Map<number, SessionClaim[]>();
    bySeq.set(claim.count - 1, [...(bySeq.get(claim.count - 1) ?? []), claim]);
    wanted.set(claim.target, bySeq);
  }
  const ids = [...wanted.keys()].map((id) => Buffer.from(JSON.stringify(id)));
  try {
    for await (const raw of readLines(file)) {
      if (raw.oversized !== undefined || !ids.some((id) => raw.bytes.includes(id))) continue;
      const parsed = parseRecord(strictUtf8.decode(raw.bytes));
      if (!parsed.ok) continue;
      for (const claim of wanted.get(parsed.record.session)?.get(parsed.record.seq) ?? []) claim.found ??= parsed.mac;
    }
  } catch {
    // Unreadable now (or not UTF-8): the first read reported what is wrong with the log.
  }
}

/**
 * Verifies an audit log against its key and seals: every line a record, every record's MAC,
 * every session's chain intact and contiguous, every sealed session present with at least its
 * sealed records, sessions in the order they were written. Streams the log, so large logs are fine.
 * Contract: never throws. The verdict names what was found (see `Verdict`); without a key only
 * the structure is checked and the verdict says `unauthenticated` unless something is wrong.
 */
export async function verifyAuditFile(file: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const log = new ProblemLog();
  const { key } = options;
  let seals: SealEntry[] = [];
  if (options.sealDir !== undefined) {
    try {
      seals = readSeals(options.sealDir, key?.seals);
    } catch (error) {
      log.add({
        kind: "unreadable",
        line: 0,
        message: `cannot read the seals in ${options.sealDir}: ${(error as Error).message}`,
      });
    }
  }
  const open = openToOthers(file);
  if (open) log.add({ kind: "unreadable", line: 0, message: open });
  const sealedCounts = new Map<string, number>();
  // Only seals that verify say where a session's sealed head is (a forged one is reported, not used).
  for (const s of seals) {
    if (s.parsed.ok && s.parsed.authentic !== false) sealedCounts.set(s.parsed.seal.session, s.parsed.seal.count);
  }
  const checker = new ChainChecker(log.add, sealedCounts);
  const foreign = new Set<string>();
  let lines = 0;
  let records = 0;
  let state: LogState = "present";
  // A line that is not JSON is torn if it turns out to be the last one, corrupt otherwise.
  let unparsed: { line: number; error: string } | undefined;
  try {
    for await (const raw of readLines(file)) {
      lines = raw.line;
      if (unparsed) log.add({ kind: "corrupt_line", line: unparsed.line, message: `not a record: ${unparsed.error}` });
      unparsed = undefined;
      if (raw.oversized !== undefined) {
        const message = `a line of ${raw.oversized} bytes, longer than any record the audit writes: not a record`;
        log.add({ kind: "corrupt_line", line: raw.line, message });
        continue;
      }
      if (!raw.terminated) {
        const message = `the last line has no newline (${raw.bytes.length} bytes): a write was cut short`;
        log.add({ kind: "torn_last_line", line: raw.line, message });
        continue;
      }
      if (raw.bytes.length === 0) {
        log.add({ kind: "corrupt_line", line: raw.line, message: "empty line" });
        continue;
      }
      let text: string;
      try {
        text = strictUtf8.decode(raw.bytes);
      } catch {
        log.add({ kind: "corrupt_line", line: raw.line, message: "not valid UTF-8: its bytes were altered" });
        continue;
      }
      const parsed = parseRecord(text);
      if (!parsed.ok) {
        if (parsed.syntax) unparsed = { line: raw.line, error: parsed.error };
        else log.add({ kind: "corrupt_line", line: raw.line, message: `not an audit record: ${parsed.error}` });
        continue;
      }
      records++;
      const { record } = parsed;
      if (key && record.kind === "session_start" && typeof record.keyId === "string" && record.keyId !== key.id) {
        foreign.add(record.session);
        const message = `session ${short(record.session)} was MAC-ed with key ${record.keyId}, not with ${key.id} (${key.file}): it cannot be authenticated with this key`;
        log.add({ kind: "foreign_key", line: raw.line, session: record.session, message });
      }
      if (key && !foreign.has(record.session) && macOf(parsed.body, key.records) !== parsed.mac) {
        checker.modified(
          record,
          raw.line,
          `seq ${record.seq} of session ${short(record.session)} does not match its MAC: modified or forged`,
        );
      }
      checker.check(record, raw.line, parsed.mac);
    }
    if (unparsed) {
      const message = `the last line is not valid JSON: a write was cut short (${unparsed.error})`;
      log.add({ kind: "torn_last_line", line: unparsed.line, message });
    }
    if (lines === 0) state = "empty";
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code === "ENOENT") state = "missing";
    else log.add({ kind: "unreadable", line: 0, message: `cannot read the log: ${err.message}` });
  }
  const tracks = checker.finish();
  if (options.sealDir !== undefined) {
    const logPath = options.logPath === false ? undefined : (options.logPath ?? file);
    compareSeals({ seals, tracks, log: state, report: log.add, logPath });
  }
  checkSessionOrder(tracks, log.add);
  await findClaimedRecords(file, checker.unresolvedClaims());
  checkClaims(tracks, log.add);
  checkPredecessors(tracks, log.add);
  checkOrigin(
    tracks,
    seals,
    { logId: options.sealDir !== undefined ? readLogId(options.sealDir) : undefined, project: options.project },
    log.add,
  );
  const problems = [...log.list].sort((a, b) => a.line - b.line);
  return decideVerdict({
    file,
    authenticated: key !== undefined,
    ...(options.sealDir !== undefined ? { sealDir: options.sealDir } : {}),
    seals: seals.length,
    lines,
    records,
    state,
    sessions: tracks.map((t) => t.summary),
    problems,
    problemCount: log.count,
  });
}
