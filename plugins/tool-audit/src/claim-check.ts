import { type SessionTrack, short } from "./chain-checker.ts";
import type { VerifyProblem } from "./verify-report.ts";

type Report = (problem: VerifyProblem) => void;

function byOrdinal(tracks: readonly SessionTrack[]): Map<number, SessionTrack> {
  const map = new Map<number, SessionTrack>();
  for (const t of tracks) if (t.summary.ordinal !== undefined) map.set(t.summary.ordinal, t);
  return map;
}

/**
 * Each session's account of earlier ones (`previous` and `finished` of its session_start: the
 * authentic seals it read as it started) against the log: each of those sessions must still be
 * in the log with the records it had then, the one at seq `count - 1` must be the record it
 * vouched for (its MAC), and its `session_end` must be there if it had closed. A session whose own
 * seal was rolled back to an older slot (or to an older copy) and its end cut, or that was deleted
 * whole, looks like a crash, or like a session that never wrote, by its seal alone; and a session
 * replaced by another log's (the same key) brings its own seal. The later session's record, MAC-ed
 * in its own chain, says otherwise.
 */
export function checkClaims(tracks: readonly SessionTrack[], report: Report): void {
  const numbered = byOrdinal(tracks);
  for (const t of tracks) {
    for (const claim of t.claims) {
      const when = `when session #${t.summary.ordinal} started (line ${claim.line})`;
      const before = numbered.get(claim.ordinal);
      if (!before) {
        // A session that had written nothing yet may never write (its run failed): only records vouched for count.
        if (claim.count === 0) continue;
        const message = `session #${claim.ordinal} had ${claim.count} records${claim.closed ? " and had closed" : ""} ${when}, but it is not in the log: deleted`;
        report({ kind: "session_deleted", line: claim.line, detectedAt: claim.line, message });
        continue;
      }
      const s = before.summary;
      const have = s.lastSeq + 1;
      if (have < claim.count || (claim.closed && !s.ended)) {
        const then = `${claim.count} records${claim.closed ? " and had closed" : ""}`;
        const now = `${have}${claim.closed && !s.ended ? " and no session_end" : ""}`;
        const message = `session ${short(s.session)} (#${claim.ordinal}) had ${then} ${when}; the log has ${now}: its end was cut`;
        report({ kind: "truncated", line: s.lastLine, session: s.session, seq: have, message });
        continue;
      }
      if (claim.count > 0 && claim.found !== undefined && claim.found !== claim.head) {
        const message = `session ${short(s.session)} (#${claim.ordinal}) is not the session #${claim.ordinal} that was there ${when}: its record at seq ${claim.count - 1} differs from the one vouched for (replaced, e.g. by a session of another log)`;
        // Located at the session's last line: a record whose own MAC fails is named first, at its line.
        report({
          kind: "modified",
          line: s.lastLine,
          session: s.session,
          seq: claim.count - 1,
          detectedAt: claim.line,
          message,
        });
      }
    }
  }
}

/**
 * Sessions that started without an authentic seal of the session numbered just before them. A
 * writer reads that seal as it takes its number (the seal is linked into place whole before the
 * number is taken, and stays readable until a later session folds it), and records it as
 * `previous`; one that could not (the seal was hidden, emptied or swapped for a line that is not
 * that session's authentic seal at that moment, then put back) vouched for nothing, counted fewer
 * sessions as finished (`settled`), and let the sessions before it be reordered after it unseen.
 * Only sessions that carry a log id are held to it: their writer always records `previous`.
 */
export function checkPredecessors(tracks: readonly SessionTrack[], report: Report): void {
  for (const t of tracks) {
    const ordinal = t.summary.ordinal;
    if (t.logId === undefined || ordinal === undefined || ordinal <= 1) continue;
    if (t.previous?.ordinal === ordinal - 1) continue;
    const s = t.summary;
    const what =
      t.previous === undefined
        ? `found no authentic seal of session #${ordinal - 1}`
        : `took the seal of session #${t.previous.ordinal} for that of session #${ordinal - 1}`;
    const message = `session ${short(s.session)} (#${ordinal}) ${what} when it started (line ${s.firstLine}): the seal folder was tampered with at that moment, so what it vouches for and its order cannot be relied on`;
    report({ kind: "seal_invalid", line: s.firstLine, session: s.session, message });
  }
}
