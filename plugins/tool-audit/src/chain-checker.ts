import { type AuditRecord, GENESIS_HASH } from "./record.ts";
import type { SessionSummary, VerifyProblem } from "./verify-report.ts";

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

/**
 * A session's account of an earlier one, from its session_start (`previous`, `finished`): that
 * session had `count` records, the last with MAC `head`, and had closed or not.
 */
export interface SessionClaim {
  ordinal: number;
  count: number;
  head: string;
  closed: boolean;
  /** The claiming session's number and first line. */
  by: number | undefined;
  line: number;
  /** The MAC of the claimed session's record at seq `count - 1`, once found in the log. */
  found?: string;
  /** The claimed session's id, once known (to look the record up again if needed). */
  target?: string;
}

/** How many of a running session's latest MACs are kept to answer claims made meanwhile. */
const RECENT_MACS = 256;

/** One session as the checker follows it. */
export interface SessionTrack {
  summary: SessionSummary;
  lastMac: string;
  endLine: number | undefined;
  gaps: Gap[];
  /** A failed link whose blame depends on the next record of the session. */
  pendingBreak: VerifyProblem | undefined;
  /** `settled` of its session_start: sessions numbered up to it had finished before it began. */
  settled: number | undefined;
  /** `previous` and `finished` of its session_start: how earlier sessions stood when it began. */
  claims: SessionClaim[];
  /** Its `previous` claim alone (undefined when its session_start has none). */
  previous: SessionClaim | undefined;
  /** `logId` of its session_start. */
  logId: string | undefined;
  /** `cwd` of its session_start. */
  cwd: unknown;
  /** The MACs of its latest records (seq `recentFrom` on), while it runs. */
  recent: string[];
  recentFrom: number;
  /** The MAC of the record at seq `sealedCount - 1`, captured for the seal comparison. */
  sealedHead: string | undefined;
  /** From a `gap` record: the session's records before this seq were in a file that was lost. */
  lostBefore: number | undefined;
  gapLine: number | undefined;
  gapCause: string | undefined;
}

const range = (from: number, to: number) => (from === to ? `seq ${from}` : `seq ${from}–${to}`);
/** A session id as messages show it. */
export const short = (session: string) => session.slice(0, 8);

/**
 * Checks the chain of every session in file order, one record at a time: each record's MAC (when
 * a key is given), each `prev` against the MAC of the session's previous record, seq order.
 * Contract: feed records in line order, then call `finish`. A record whose MAC fails is
 * `modified` at its own line; a broken link is blamed on the record whose bytes changed (the
 * previous record, or this one when the next link breaks too). A seq skip is "reordered" if the
 * skipped records turn up later, else "missing_records" (or a recorded gap). Problems go to
 * `report` in detection order.
 */
export class ChainChecker {
  readonly #tracks = new Map<string, SessionTrack>();
  readonly #report: (problem: VerifyProblem) => void;
  readonly #sealedCounts: ReadonlyMap<string, number>;
  /** Lines already reported as modified, so a broken link is not blamed on them twice. */
  readonly #modified = new Set<number>();
  /** Sessions by their number, as their session_start says. */
  readonly #byOrdinal = new Map<number, SessionTrack>();
  /** Claims about records not seen yet, by the claimed session's number. */
  readonly #pending = new Map<number, SessionClaim[]>();

  constructor(report: (problem: VerifyProblem) => void, sealedCounts: ReadonlyMap<string, number> = new Map()) {
    this.#report = report;
    this.#sealedCounts = sealedCounts;
  }

  /** Reports a record whose MAC does not verify. */
  modified(record: AuditRecord, line: number, message: string): void {
    this.#modified.add(line);
    this.#report({ kind: "modified", line, session: record.session, seq: record.seq, message });
  }

  #blame(problem: VerifyProblem): void {
    if (!this.#modified.has(problem.line)) this.#report(problem);
  }

  /** Checks one record (whose own MAC is `mac`) against its session's chain. */
  check(record: AuditRecord, line: number, mac: string): void {
    const { session, seq } = record;
    const track = this.#tracks.get(session);
    if (!track) {
      const created = this.#open(record, line);
      if (seq !== 0)
        created.gaps.push({ from: 0, to: seq - 1, line, prevLine: undefined, filled: 0, fillLine: undefined });
      else if (record.prev !== GENESIS_HASH) {
        const message = `session ${short(session)} starts at line ${line} but its prev is not the genesis value`;
        this.#blame({ kind: "modified", line, session, seq, message });
      }
      this.#accept(created, record, line, mac);
      return;
    }
    const s = track.summary;
    if (track.endLine !== undefined) {
      const message = `seq ${seq} of session ${short(session)} comes after the session ended at line ${track.endLine}: inserted`;
      this.#report({ kind: "inserted", line, session, seq, message });
      return;
    }
    if (seq === s.lastSeq + 1) {
      const linked = record.prev === track.lastMac;
      const pending = track.pendingBreak;
      track.pendingBreak = undefined;
      if (pending && !linked) {
        // Both links around the previous record broke: that record's own bytes changed.
        const message = `seq ${s.lastSeq} of session ${short(session)} was modified: it links neither to the record before it nor to line ${line} after it`;
        this.#blame({ ...pending, line: s.lastLine, seq: s.lastSeq, detectedAt: line, message });
      } else {
        if (pending) this.#blame(pending);
        if (!linked) {
          const message = `seq ${s.lastSeq} of session ${short(session)} does not match the MAC line ${line} holds for it: modified or replaced`;
          track.pendingBreak = {
            kind: "modified",
            line: s.lastLine,
            session,
            seq: s.lastSeq,
            detectedAt: line,
            message,
          };
        }
      }
      this.#accept(track, record, line, mac);
    } else if (seq > s.lastSeq + 1) {
      this.#settle(track);
      track.gaps.push({ from: s.lastSeq + 1, to: seq - 1, line, prevLine: s.lastLine, filled: 0, fillLine: undefined });
      this.#accept(track, record, line, mac);
    } else {
      const gap = track.gaps.find((g) => seq >= g.from && seq <= g.to);
      if (gap) {
        gap.filled++;
        gap.fillLine ??= line;
      } else {
        const message = `seq ${seq} of session ${short(session)} appears again after seq ${s.lastSeq} (line ${s.lastLine}): duplicated or inserted`;
        this.#report({ kind: "inserted", line, session, seq, message });
      }
    }
  }

  #open(record: AuditRecord, line: number): SessionTrack {
    const summary: SessionSummary = {
      session: record.session,
      records: 0,
      firstLine: line,
      lastLine: line,
      lastSeq: -1,
      ended: false,
    };
    if (typeof record.pid === "number") summary.pid = record.pid;
    const track: SessionTrack = {
      summary,
      lastMac: "",
      endLine: undefined,
      gaps: [],
      pendingBreak: undefined,
      settled: undefined,
      claims: [],
      previous: undefined,
      logId: undefined,
      cwd: undefined,
      recent: [],
      recentFrom: 0,
      sealedHead: undefined,
      lostBefore: undefined,
      gapLine: undefined,
      gapCause: undefined,
    };
    this.#tracks.set(record.session, track);
    return track;
  }

  #accept(track: SessionTrack, record: AuditRecord, line: number, mac: string): void {
    const s = track.summary;
    s.records++;
    s.lastSeq = record.seq;
    s.lastLine = line;
    track.lastMac = mac;
    if (record.seq === (this.#sealedCounts.get(record.session) ?? 0) - 1) track.sealedHead = mac;
    if (track.recent.length === 0) track.recentFrom = record.seq;
    track.recent.push(mac);
    if (track.recent.length > RECENT_MACS) {
      track.recent.shift();
      track.recentFrom++;
    }
    if (record.kind === "session_start") {
      if (typeof record.ordinal === "number") {
        s.ordinal = record.ordinal;
        this.#byOrdinal.set(record.ordinal, track);
      }
      if (typeof record.keyId === "string") s.keyId = record.keyId;
      if (typeof record.settled === "number") track.settled = record.settled;
      if (typeof record.logId === "string") track.logId = record.logId;
      track.cwd = record.cwd;
      const claimed = [record.previous, ...(Array.isArray(record.finished) ? record.finished : [])];
      for (const claim of claimed) {
        if (!isClaim(claim)) continue;
        const entry: SessionClaim = { ...pick(claim), by: s.ordinal, line };
        if (claim === record.previous) track.previous = entry;
        track.claims.push(entry);
        this.#lookUp(entry);
      }
    } else if (record.kind === "gap" && typeof record.lost === "number") {
      track.lostBefore = Math.max(track.lostBefore ?? 0, record.lost);
      track.gapLine = line;
      track.gapCause = typeof record.cause === "string" ? record.cause : "(a cause that is not text)";
    } else if (record.kind === "session_end") {
      s.ended = true;
      track.endLine = line;
      track.recent = [track.lastMac];
      track.recentFrom = record.seq;
    }
    const waiting = s.ordinal === undefined ? undefined : this.#pending.get(s.ordinal);
    if (waiting) {
      for (const claim of waiting) if (claim.count - 1 === record.seq) claim.found = mac;
    }
  }

  /** Finds the MAC a claim is about among what was read so far, or waits for it. */
  #lookUp(claim: SessionClaim): void {
    if (claim.count === 0) return;
    const seq = claim.count - 1;
    const target = this.#byOrdinal.get(claim.ordinal);
    if (target) claim.target = target.summary.session;
    if (!target || seq > target.summary.lastSeq) {
      const list = this.#pending.get(claim.ordinal) ?? [];
      list.push(claim);
      this.#pending.set(claim.ordinal, list);
      return;
    }
    const mac = target.recent[seq - target.recentFrom];
    if (mac !== undefined) claim.found = mac;
  }

  /**
   * Claims whose record was read before the claim and is no longer in memory: the caller looks
   * them up with a second read of the log (rare: a running session wrote many records while another
   * one started).
   */
  unresolvedClaims(): SessionClaim[] {
    const out: SessionClaim[] = [];
    for (const track of this.#tracks.values()) {
      for (const claim of track.claims) {
        if (claim.found !== undefined || claim.count === 0) continue;
        const target = this.#byOrdinal.get(claim.ordinal);
        if (!target || claim.count - 1 > target.summary.lastSeq) continue;
        claim.target = target.summary.session;
        out.push(claim);
      }
    }
    return out;
  }

  #settle(track: SessionTrack): void {
    if (track.pendingBreak) this.#blame(track.pendingBreak);
    track.pendingBreak = undefined;
  }

  #reportGap(session: string, gap: Gap, track: SessionTrack): void {
    const size = gap.to - gap.from + 1;
    const what = `${range(gap.from, gap.to)} of session ${short(session)}`;
    if (gap.filled > 0) {
      const message = `${what} should come before line ${gap.line} but turned up at line ${gap.fillLine}: reordered`;
      this.#report({ kind: "reordered", line: gap.line, session, seq: gap.from, message });
    }
    if (gap.filled >= size) return;
    if (gap.from === 0 && track.lostBefore !== undefined && gap.to < track.lostBefore) {
      const message = `the sink recorded at line ${track.gapLine} that ${track.gapCause}: ${what} went to the lost file`;
      this.#report({ kind: "gap_recorded", line: track.gapLine ?? gap.line, session, seq: gap.from, message });
      return;
    }
    const where =
      gap.prevLine === undefined ? `before line ${gap.line}` : `between line ${gap.prevLine} and line ${gap.line}`;
    const message = `${what} missing ${where}: records were deleted or lost`;
    this.#report({ kind: "missing_records", line: gap.line, session, seq: gap.from, message });
  }

  /** Settles open questions and returns every session in the order it first appeared. */
  finish(): SessionTrack[] {
    for (const [session, track] of this.#tracks) {
      this.#settle(track);
      for (const gap of track.gaps) this.#reportGap(session, gap, track);
    }
    return [...this.#tracks.values()];
  }
}

const HEX64 = /^[0-9a-f]{64}$/;

function isClaim(value: unknown): value is { ordinal: number; count: number; head: string; closed: boolean } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.ordinal === "number" &&
    Number.isSafeInteger(c.ordinal) &&
    typeof c.count === "number" &&
    Number.isSafeInteger(c.count) &&
    c.count >= 0 &&
    typeof c.head === "string" &&
    HEX64.test(c.head) &&
    typeof c.closed === "boolean"
  );
}

const pick = (c: { ordinal: number; count: number; head: string; closed: boolean }) => ({
  ordinal: c.ordinal,
  count: c.count,
  head: c.head,
  closed: c.closed,
});
