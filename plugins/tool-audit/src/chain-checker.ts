import { type AuditRecord, GENESIS_HASH } from "./record.ts";
import type { IncompleteSession, SessionSummary, VerifyProblem } from "./verify-report.ts";

/** A run of seq numbers that was skipped; it may turn up later (reordered) or never (missing). */
interface Gap {
  from: number;
  to: number;
  /** The line where the skip was seen, and the session's line before it. */
  line: number;
  prevLine: number | undefined;
  filled: number;
  fillLine: number | undefined;
}

interface Track {
  summary: SessionSummary;
  lastHash: string;
  endLine: number | undefined;
  gaps: Gap[];
  /** A failed link whose blame depends on the next record of the session. */
  pendingBreak: VerifyProblem | undefined;
}

const range = (from: number, to: number) => (from === to ? `seq ${from}` : `seq ${from}–${to}`);
const short = (session: string) => session.slice(0, 8);

/**
 * Checks the hash chain of every session in file order, one record at a time.
 * Contract: feed records in line order with the sha256 of their exact bytes, then call `finish`.
 * A broken link is blamed on the record whose bytes changed: the previous record, or this one when
 * the next link breaks too. A seq skip is "reordered" if the skipped records turn up later, else
 * "missing records". Problems go to `report` in detection order.
 */
export class ChainChecker {
  readonly #tracks = new Map<string, Track>();
  readonly #report: (problem: VerifyProblem) => void;

  constructor(report: (problem: VerifyProblem) => void) {
    this.#report = report;
  }

  /** Checks one record against its session's chain. */
  check(record: AuditRecord, line: number, hash: string): void {
    const { session, seq } = record;
    const track = this.#tracks.get(session);
    if (!track) {
      const created = this.#open(record, line);
      if (seq !== 0)
        created.gaps.push({ from: 0, to: seq - 1, line, prevLine: undefined, filled: 0, fillLine: undefined });
      else if (record.prev !== GENESIS_HASH) {
        const message = `session ${short(session)} starts at line ${line} but its prev is not the genesis hash`;
        this.#report({ kind: "broken_chain", line, session, seq, message });
      }
      this.#accept(created, record, line, hash);
      return;
    }
    const s = track.summary;
    if (track.endLine !== undefined) {
      const message = `seq ${seq} of session ${short(session)} comes after the session ended at line ${track.endLine}: inserted`;
      this.#report({ kind: "reordered", line, session, seq, message });
      return;
    }
    if (seq === s.lastSeq + 1) {
      const linked = record.prev === track.lastHash;
      const pending = track.pendingBreak;
      track.pendingBreak = undefined;
      if (pending && !linked) {
        // Both links around the previous record broke: that record's own bytes changed.
        const message = `seq ${s.lastSeq} of session ${short(session)} was modified: it links neither to the record before it nor to line ${line} after it`;
        this.#report({ ...pending, line: s.lastLine, seq: s.lastSeq, detectedAt: line, message });
      } else {
        if (pending) this.#report(pending);
        if (!linked) {
          const message = `seq ${s.lastSeq} of session ${short(session)} does not match the hash line ${line} holds for it: modified or replaced`;
          track.pendingBreak = {
            kind: "broken_chain",
            line: s.lastLine,
            session,
            seq: s.lastSeq,
            detectedAt: line,
            message,
          };
        }
      }
      this.#accept(track, record, line, hash);
    } else if (seq > s.lastSeq + 1) {
      this.#settle(track);
      track.gaps.push({ from: s.lastSeq + 1, to: seq - 1, line, prevLine: s.lastLine, filled: 0, fillLine: undefined });
      this.#accept(track, record, line, hash);
    } else {
      const gap = track.gaps.find((g) => seq >= g.from && seq <= g.to);
      if (gap) {
        gap.filled++;
        gap.fillLine ??= line;
      } else {
        const message = `seq ${seq} of session ${short(session)} appears again after seq ${s.lastSeq} (line ${s.lastLine}): duplicated or inserted`;
        this.#report({ kind: "reordered", line, session, seq, message });
      }
    }
  }

  #open(record: AuditRecord, line: number): Track {
    const summary: SessionSummary = {
      session: record.session,
      records: 0,
      firstLine: line,
      lastLine: line,
      lastSeq: -1,
      ended: false,
    };
    if (typeof record.pid === "number") summary.pid = record.pid;
    const track: Track = { summary, lastHash: "", endLine: undefined, gaps: [], pendingBreak: undefined };
    this.#tracks.set(record.session, track);
    return track;
  }

  #accept(track: Track, record: AuditRecord, line: number, hash: string): void {
    const s = track.summary;
    s.records++;
    s.lastSeq = record.seq;
    s.lastLine = line;
    track.lastHash = hash;
    if (record.kind === "session_end") {
      s.ended = true;
      track.endLine = line;
    }
  }

  #settle(track: Track): void {
    if (track.pendingBreak) this.#report(track.pendingBreak);
    track.pendingBreak = undefined;
  }

  #reportGap(session: string, gap: Gap): void {
    const size = gap.to - gap.from + 1;
    const what = `${range(gap.from, gap.to)} of session ${short(session)}`;
    if (gap.filled > 0) {
      const message = `${what} should come before line ${gap.line} but turned up at line ${gap.fillLine}: reordered`;
      this.#report({ kind: "reordered", line: gap.line, session, seq: gap.from, message });
    }
    if (gap.filled < size) {
      const where =
        gap.prevLine === undefined ? `before line ${gap.line}` : `between line ${gap.prevLine} and line ${gap.line}`;
      const message = `${what} missing ${where}: records were deleted or lost`;
      this.#report({ kind: "missing_records", line: gap.line, session, seq: gap.from, message });
    }
  }

  /** Settles open questions and returns every session, and those that never ended. */
  finish(): { sessions: SessionSummary[]; incomplete: IncompleteSession[] } {
    const sessions: SessionSummary[] = [];
    const incomplete: IncompleteSession[] = [];
    for (const [session, track] of this.#tracks) {
      this.#settle(track);
      for (const gap of track.gaps) this.#reportGap(session, gap);
      const s = track.summary;
      sessions.push(s);
      if (s.ended) continue;
      const who = `session ${session}${s.pid !== undefined ? ` (pid ${s.pid})` : ""}`;
      const message = `${who} has no session_end: the run ended without closing (killed or crashed) after seq ${s.lastSeq} at line ${s.lastLine}; at most its unflushed batch was lost.`;
      const entry: IncompleteSession = { session, lastSeq: s.lastSeq, lastLine: s.lastLine, message };
      if (s.pid !== undefined) entry.pid = s.pid;
      incomplete.push(entry);
    }
    return { sessions, incomplete };
  }
}
