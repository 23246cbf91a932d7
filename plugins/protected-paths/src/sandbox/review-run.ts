import { symlinkSync } from "node:fs";
import path from "node:path";
import type { SandboxViolation } from "@gatehouse/sdk";
import { showPath } from "../paths/path-text.ts";
import { type DenyIndex, type DenyMatch, identityOrNone } from "../scan/deny-index.ts";
import { atShortPath, chmodAt, encodePath, lstatAt } from "../scan/raw-fs.ts";

/** The rule named in violations for what the review could not read. */
export const UNREADABLE = "sandbox review: unreadable path";

/** The write-denied matches as they were when a run started. */
export type Baseline = ReadonlyMap<string, DenyMatch>;

/** The write-denied matches of an index, by path. */
export function baselineOf(matches: readonly DenyMatch[]): Baseline {
  return new Map(matches.filter((m) => m.write).map((m) => [m.path, m]));
}

/** Violations every run records, so that runs of one parallel batch all report what any of them undid. */
export class ViolationLog {
  readonly #entries: { seq: number; violation: SandboxViolation }[] = [];
  #seq = 0;

  /** A mark: `since(mark)` returns what was recorded after it. */
  mark(): number {
    return this.#seq;
  }

  record(violation: SandboxViolation): number {
    this.#seq += 1;
    this.#entries.push({ seq: this.#seq, violation });
    return this.#seq;
  }

  since(mark: number): { seq: number; violation: SandboxViolation }[] {
    return this.#entries.filter((e) => e.seq > mark);
  }
}

function depth(p: string): number {
  return p.split(path.sep).length;
}

function within(base: string, p: string): boolean {
  return p === base || p.startsWith(`${base}${path.sep}`);
}

/** True when `now` is still the symlink `before` was (same entry, same target text). */
function sameLink(now: DenyMatch, before: DenyMatch): boolean {
  const [a, b] = [now.identity, before.identity];
  return a.dev === b.dev && a.ino === b.ino && a.kind === b.kind && a.link?.target === b.link?.target;
}

/** What the run did to one write-denied path, or undefined when it left it alone. */
function change(now: DenyMatch | undefined, before: DenyMatch | undefined): "created" | "replaced" | undefined {
  if (now?.write && !before) return "created";
  // Only a symlink can change under its mounts: the mount protects its target, not the link itself.
  if (now && before?.identity.kind === "link" && !sameLink(now, before)) return "replaced";
  return undefined;
}

/**
 * After a sandboxed run: finds what it created or replaced that a write rule denies, takes it out
 * of the workspace and puts back symlinks it replaced or removed.
 * Contract: refreshes the index; a path inside one already removed is not reported again; files
 * created through a protected symlink that dangled are removed as well; every undone change is
 * recorded in `log` and the result holds this run's own changes plus every change any other run
 * recorded since `mark` (a parallel batch shares the blame), except paths that already existed when
 * this run started. Throws when a path cannot be removed.
 */
export function reviewRun(options: {
  index: DenyIndex;
  baseline: Baseline;
  log: ViolationLog;
  mark: number;
  /**
   * Takes a path out of the workspace, then runs `then` (now, or once no running sandbox still
   * uses the path); says what became of it ("moved out of the workspace to X").
   */
  remove: (p: string, then?: () => void) => string;
  /** Told of a path `remove` could not take out: it stays a violation until it is gone. */
  stuck: (p: string) => void;
  /** Whether a sandboxed command could have written `p` (inside a writable root). */
  writable: (p: string) => boolean;
  /** What the index could not read when the run started (`DenyIndex.unreadable`). */
  unreadableBefore?: ReadonlySet<string>;
  /** The workspace roots: never taken out, whatever the index says of them. */
  roots?: readonly string[];
}): SandboxViolation[] {
  const { index, baseline, log } = options;
  index.refresh();
  const now = new Map(index.matches().map((m) => [m.path, m]));
  const removed: string[] = [];
  const own = new Set<number>();
  const record = (violation: SandboxViolation) => own.add(log.record(violation));
  // Each path on its own: one that cannot be taken out is reported and kept for later (`stuck`),
  // and the others are still taken out.
  const undo = (p: string, rule: string, why: string, then?: () => void) => {
    let fate: string;
    try {
      fate = options.remove(p, then);
      removed.push(p);
    } catch (error) {
      options.stuck(p);
      fate = `left in place, as it could not be taken out (${(error as Error).message}); no sandboxed command runs in this workspace until it is gone`;
    }
    const reason = `The command ${why} ${showPath(p)}, which the path policy protects (${rule}); it was ${fate}.`;
    record({ path: p, rule, reason });
  };
  const restore = (p: string, target: string) => () => {
    if (identityOrNone(p) !== undefined) return;
    const put = () => atShortPath(p, (at) => symlinkSync(encodePath(target), at));
    try {
      put();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EACCES") throw error;
      // The command took the write bits off the folder (`chmod 555 .`): its owner, the user
      // Gatehouse runs as, gets them back, as the quarantine does before it moves anything.
      const parent = path.dirname(p);
      const mode = lstatAt(parent)?.mode ?? 0;
      chmodAt(parent, (mode & 0o7777) | 0o700);
      put();
    }
  };
  for (const match of [...now.values()].sort((a, b) => depth(a.path) - depth(b.path))) {
    if (removed.some((r) => within(r, match.path))) continue;
    const before = baseline.get(match.path);
    const what = change(match, before);
    const rule = match.write ?? before?.write;
    if (!what || !rule) continue;
    if (what === "created") undo(match.path, rule.label, "created");
    else
      undo(
        match.path,
        rule.label,
        "replaced the protected symlink",
        restore(match.path, before?.identity.link?.target ?? ""),
      );
  }
  for (const before of baseline.values()) {
    const link = before.identity.link;
    if (before.identity.kind !== "link" || !link || !before.write) continue;
    if (!now.has(before.path) && identityOrNone(before.path) === undefined) {
      restore(before.path, link.target)();
      const reason = `The command removed the protected symlink ${showPath(before.path)} (${before.write.label}); it was put back.`;
      record({ path: before.path, rule: before.write.label, reason });
    }
    // A write through a protected symlink that dangled creates its target: that is a write to it.
    const target = path.resolve(path.dirname(before.path), link.target);
    if (link.resolved === undefined && options.writable(target) && identityOrNone(target) !== undefined) {
      undo(target, before.write.label, `wrote through the protected symlink ${showPath(before.path)} to`);
    }
  }
  // What the run left that the index cannot read or examine is unknown: it may hide anything a
  // rule denies, so it is taken out like a protected path (fail closed).
  const roots = new Set(options.roots ?? []);
  for (const [p, why] of [...index.unreadable()].sort(([a], [b]) => depth(a) - depth(b))) {
    if (roots.has(p) || options.unreadableBefore?.has(p) || !options.writable(p)) continue;
    if (removed.some((r) => within(r, p))) continue;
    undo(p, UNREADABLE, `left something the review could not read (${why}) at`);
  }
  if (removed.length > 0) index.refresh();
  // What existed when this run started was not its doing, whoever undid it meanwhile.
  return log
    .since(options.mark)
    .filter((e) => own.has(e.seq) || !baseline.has(e.violation.path))
    .map((e) => e.violation);
}
