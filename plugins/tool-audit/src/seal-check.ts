import { realish } from "./audit-location.ts";
import { type SessionTrack, short } from "./chain-checker.ts";
import { type SealEntry, strayProblem } from "./read-seals.ts";
import type { Seal } from "./seal.ts";
import { scrubSecrets } from "./secret-scrub.ts";
import type { VerifyProblem } from "./verify-report.ts";

/** What the log looked like as a whole. */
export type LogState = "missing" | "empty" | "present";

/** Inputs of `compareSeals`. */
export interface SealComparison {
  seals: readonly SealEntry[];
  tracks: readonly SessionTrack[];
  log: LogState;
  report: (problem: VerifyProblem) => void;
  /**
   * The log the seals must name (`Seal.log`, compared by `logIdentity`); `undefined`: the
   * log most authentic seals name. A seal of another log (every project shares one key, and
   * every log has a session #1) is never taken for this log's.
   */
  logPath?: string | undefined;
}

/**
 * What tells one log from another: its folder's name and its own (`<project id>/audit.jsonl` in
 * the Gatehouse home), so a home moved or restored elsewhere still verifies, while another
 * project's log (another project id) never passes for this one.
 */
function logIdentity(file: string): string {
  return realish(file).split(/[\\/]/).slice(-2).join("/");
}

/** The log most of the authentic seals name. */
function usualLog(seals: readonly SealEntry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const entry of seals) {
    const seal = sealed(entry);
    if (seal) counts.set(logIdentity(seal.log), (counts.get(logIdentity(seal.log)) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function sealed(entry: SealEntry): Seal | undefined {
  return entry.parsed.ok && entry.parsed.authentic !== false ? entry.parsed.seal : undefined;
}

function checkSealedSession(seal: Seal, file: string, track: SessionTrack, report: (p: VerifyProblem) => void): void {
  const s = track.summary;
  s.sealed = seal.count;
  const session = seal.session;
  const have = s.lastSeq + 1;
  if (s.ordinal !== undefined && s.ordinal !== seal.ordinal) {
    const message = `session ${short(session)} says it is session #${s.ordinal}, its seal ${file} says #${seal.ordinal}`;
    report({ kind: "modified", line: s.firstLine, session, message });
  }
  if (have < seal.count) {
    const message = `session ${short(session)} was truncated: its seal says ${seal.count} records, the log has ${have} (seq ${have}–${seal.count - 1} missing after line ${s.lastLine})`;
    report({ kind: "truncated", line: s.lastLine, session, seq: have, seal: file, message });
    return;
  }
  if (seal.count > 0 && track.sealedHead !== seal.head) {
    const message = `session ${short(session)}: the record at seq ${seal.count - 1} is not the one its seal vouches for (replaced)`;
    report({ kind: "modified", line: s.lastLine, session, seq: seal.count - 1, seal: file, message });
  }
  if (seal.closed) return;
  const who = `session ${short(session)}${s.pid !== undefined ? ` (pid ${s.pid})` : ""}`;
  const tail =
    have > seal.count
      ? `${have - seal.count} record(s) after the last seal (seq ${seal.count}–${have - 1}, up to line ${s.lastLine}) are not vouched for`
      : s.ended
        ? "its session_end is in the log but its final seal was not written"
        : "nothing follows its last seal";
  const message = `${who} did not close (killed or crashed, or still running): its ${seal.count} sealed record(s) verify; ${tail}`;
  report({ kind: "unsealed_tail", line: s.lastLine, session, seq: seal.count, seal: file, message });
}

/**
 * The session numbers below the highest sealed one that neither a seal nor the log knows: one
 * problem per run of consecutive numbers, found between the known numbers (so a seal renamed to a
 * huge number costs one report, not one per number in between).
 */
function holes(seals: readonly SealEntry[], byOrdinal: ReadonlyMap<number, SessionTrack>): VerifyProblem[] {
  const highest = seals.at(-1)?.ordinal ?? 0;
  const known = new Set<number>();
  for (const e of seals) if (e.ordinal >= 1 && e.ordinal < highest) known.add(e.ordinal);
  // Sessions in the log without a seal are reported as such, not as deleted.
  for (const n of byOrdinal.keys()) if (n >= 1 && n < highest) known.add(n);
  const found: VerifyProblem[] = [];
  // A bucket of sessions up to #L is folded by a session numbered above L, whose seal exists before
  // it folds: with none above L, that session (and any after it) was deleted with its seal.
  const folded = seals.reduce(
    (most, e) => Math.max(most, Number(/(\d+)-(\d+)\.seals(?::\d+)?$/.exec(e.file)?.[2] ?? 0)),
    0,
  );
  if (folded > 0 && highest <= folded && !byOrdinal.has(folded + 1)) {
    const message = `session #${folded + 1}, which folded the seals of sessions up to #${folded}, is missing from both the seals and the log: deleted`;
    found.push({ kind: "session_deleted", line: 0, message });
  }
  let previous = 0;
  for (const n of [...known, highest].sort((a, b) => a - b)) {
    if (n > previous + 1) {
      const first = previous + 1;
      const last = n - 1;
      const message =
        first === last
          ? `session #${first} is missing from both the seals and the log: deleted`
          : `sessions #${first}–#${last} (${last - first + 1}) are missing from both the seals and the log: deleted`;
      found.push({ kind: "session_deleted", line: 0, message });
    }
    previous = n;
  }
  return found;
}

/**
 * Compares the log with its seals: every sealed session present with at least its sealed records
 * and the sealed head, numbers without holes, every session of the log sealed.
 * Contract: reports through `report`; a log missing, emptied, or holding none of the sealed
 * sessions is named as such instead of one deletion per session.
 */
export function compareSeals({ seals, tracks, log, report, logPath }: SealComparison): void {
  const expected = logPath === undefined ? usualLog(seals) : logIdentity(logPath);
  const bySession = new Map(tracks.map((t) => [t.summary.session, t]));
  const byOrdinal = new Map<number, SessionTrack>();
  for (const t of tracks) if (t.summary.ordinal !== undefined) byOrdinal.set(t.summary.ordinal, t);
  const sealedSessions = new Set<string>();
  const deleted: VerifyProblem[] = [];
  let recordsSealed = 0;
  for (const entry of seals) {
    for (const other of entry.others ?? []) {
      const why = strayProblem(entry, other);
      if (!why) continue;
      const session = entry.parsed.ok ? entry.parsed.seal.session : undefined;
      report({
        kind: "seal_invalid",
        line: 0,
        ...(session ? { session } : {}),
        seal: entry.file,
        message: `seal ${entry.file}: ${why}`,
      });
    }
    if (!entry.parsed.ok) {
      report({
        kind: "seal_invalid",
        line: 0,
        seal: entry.file,
        message: `seal ${entry.file} is not a seal: ${entry.parsed.error}`,
      });
      continue;
    }
    const seal = sealed(entry);
    if (!seal) {
      const message = `seal ${entry.file} does not verify with the key: forged or altered`;
      report({ kind: "seal_invalid", line: 0, session: entry.parsed.seal.session, seal: entry.file, message });
      continue;
    }
    if (expected !== undefined && logIdentity(seal.log) !== expected) {
      const message = `seal ${entry.file} was written for the log ${seal.log}, not for this one: copied from another log`;
      report({ kind: "seal_invalid", line: 0, session: seal.session, seal: entry.file, message });
      continue;
    }
    if (seal.ordinal !== entry.ordinal) {
      const message = `seal ${entry.file} holds session #${seal.ordinal}: seal files were renamed`;
      report({ kind: "seal_invalid", line: 0, session: seal.session, seal: entry.file, message });
    }
    sealedSessions.add(seal.session);
    recordsSealed += seal.count;
    const track = bySession.get(seal.session);
    if (track) checkSealedSession(seal, entry.file, track, report);
    else if (seal.count > 0 || seal.closed) {
      const message = `session ${short(seal.session)} (#${seal.ordinal}, ${seal.count} records${seal.closed ? ", closed" : ""}) is sealed but not in the log: deleted`;
      deleted.push({ kind: "session_deleted", line: 0, session: seal.session, seal: entry.file, message });
    }
  }
  for (const hole of holes(seals, byOrdinal)) deleted.push(hole);
  const anySealedInLog = tracks.some((t) => sealedSessions.has(t.summary.session));
  if (recordsSealed > 0 && log !== "present") {
    const message =
      log === "missing"
        ? `the log is missing, but ${seals.length} session(s) with ${recordsSealed} records were sealed: it was deleted`
        : `the log is empty, but ${seals.length} session(s) with ${recordsSealed} records were sealed: it was emptied`;
    report({ kind: log === "missing" ? "log_missing" : "log_emptied", line: 0, message });
    return;
  }
  if (recordsSealed > 0 && !anySealedInLog && tracks.length > 0) {
    const message = `none of the ${seals.length} sealed session(s) is in the log: it was replaced (its ${tracks.length} session(s) are not the ones written)`;
    report({ kind: "log_replaced", line: 0, message });
    return;
  }
  for (const problem of deleted) report(problem);
  if (seals.length === 0 && tracks.length > 0) {
    const message =
      "no seals were found for this log: its completeness cannot be checked (deleted seals, or a copied log: pass --seals DIR)";
    report({ kind: "seal_missing", line: 0, message });
    return;
  }
  for (const t of tracks) {
    if (sealedSessions.has(t.summary.session)) continue;
    const s = t.summary;
    const message = `session ${short(s.session)} (lines ${s.firstLine}–${s.lastLine}) has no seal: its seal was deleted, or the session was inserted`;
    report({ kind: "seal_missing", line: s.firstLine, session: s.session, message });
  }
}

/** What every session and seal of one log has in common: its id, and (for a project's own log) its project. */
export interface LogOrigin {
  /** The id the log's seal folder holds (`log.id`), if any. */
  logId?: string | undefined;
  /** The project whose own log this is (its per-project log in the Gatehouse home). */
  project?: string | undefined;
}

function sameProject(cwd: unknown, project: string): boolean {
  if (typeof cwd !== "string") return false;
  const real = realish(project);
  return [project, real, scrubSecrets(project), scrubSecrets(real)].includes(cwd) || realish(cwd) === real;
}

/**
 * Sessions and seals of another log: every session_start and every authentic seal that carries a
 * log id must carry this log's (the seal folder's `log.id`, else the one most of them carry); once
 * a session carries one, every later-numbered session and seal must (only sessions written before
 * log ids existed may lack it); and in a project's own log, every session must have run in that
 * project. A session copied from another log together with its seal — another project's, or the
 * same project's log in another Gatehouse home with the same key — is found by these.
 */
export function checkOrigin(
  tracks: readonly SessionTrack[],
  seals: readonly SealEntry[],
  origin: LogOrigin,
  report: (problem: VerifyProblem) => void,
): void {
  const authentic = seals.flatMap((e) => {
    const seal = sealed(e);
    return seal ? [{ seal, file: e.file }] : [];
  });
  const ids = [...tracks.map((t) => t.logId), ...authentic.map((a) => a.seal.logId)].filter(
    (id): id is string => id !== undefined,
  );
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const expected = origin.logId ?? [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  // A loop, not Math.min(...list): a log may hold more sessions than a call takes arguments.
  let firstWithId = Number.POSITIVE_INFINITY;
  for (const t of tracks) {
    if (t.logId !== undefined && t.summary.ordinal !== undefined)
      firstWithId = Math.min(firstWithId, t.summary.ordinal);
  }
  for (const { seal } of authentic) if (seal.logId !== undefined) firstWithId = Math.min(firstWithId, seal.ordinal);
  for (const t of tracks) {
    const s = t.summary;
    const who = `session ${short(s.session)}${s.ordinal !== undefined ? ` (#${s.ordinal})` : ""}`;
    if (t.logId !== undefined && expected !== undefined && t.logId !== expected) {
      const message = `${who} was written to another log (log id ${t.logId}, this log's is ${expected}): copied from another log`;
      report({ kind: "modified", line: s.firstLine, session: s.session, message });
    } else if (t.logId === undefined && s.ordinal !== undefined && s.ordinal > firstWithId) {
      const message = `${who} carries no log id, though session #${firstWithId} before it does: not written by this log's writer`;
      report({ kind: "modified", line: s.firstLine, session: s.session, message });
    }
    // Only a session whose session_start is in the log says where it ran (one whose start went to a
    // lost file, or was deleted, is reported as such elsewhere).
    if (origin.project !== undefined && t.cwd !== undefined && !sameProject(t.cwd, origin.project)) {
      const where = typeof t.cwd === "string" ? t.cwd : "an unknown folder";
      const message = `${who} ran in ${where}, not in this project (${origin.project}): copied from another project's log`;
      report({ kind: "modified", line: s.firstLine, session: s.session, message });
    }
  }
  for (const { seal, file } of authentic) {
    if (seal.logId !== undefined && expected !== undefined && seal.logId !== expected) {
      const message = `seal ${file} was written for another log (log id ${seal.logId}, this log's is ${expected}): copied from another log`;
      report({ kind: "seal_invalid", line: 0, session: seal.session, seal: file, message });
    } else if (seal.logId === undefined && seal.ordinal > firstWithId) {
      const message = `seal ${file} carries no log id, though session #${firstWithId} before it does: not written by this log's writer`;
      report({ kind: "seal_invalid", line: 0, session: seal.session, seal: file, message });
    }
  }
}

/**
 * Sessions out of file order: a session records how many sessions had finished when it started
 * (`settled`); every record of those must come before its first line.
 */
export function checkSessionOrder(tracks: readonly SessionTrack[], report: (problem: VerifyProblem) => void): void {
  const numbered = tracks
    .filter((t) => t.summary.ordinal !== undefined)
    .sort((a, b) => (a.summary.ordinal ?? 0) - (b.summary.ordinal ?? 0));
  for (const t of tracks) {
    const settled = t.settled ?? 0;
    const late = numbered.find((o) => (o.summary.ordinal ?? 0) <= settled && o.summary.lastLine > t.summary.firstLine);
    if (!late) continue;
    const message = `session ${short(t.summary.session)} (#${t.summary.ordinal}) started at line ${t.summary.firstLine} after session #${late.summary.ordinal} had finished, yet that session has records down to line ${late.summary.lastLine}: sessions were reordered`;
    report({ kind: "reordered", line: t.summary.firstLine, session: t.summary.session, message });
  }
}
