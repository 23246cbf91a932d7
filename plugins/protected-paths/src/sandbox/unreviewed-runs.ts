import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DenyRule } from "../rules/deny-rule.ts";
import type { DenyMatch, Identity } from "../scan/deny-index.ts";
import type { Baseline } from "./review-run.ts";

/** One run whose review could not complete, as its marker file holds it. */
export interface UnreviewedRun {
  /** The marker file (delete it once the run is reviewed). */
  marker: string;
  /** The write-denied matches when that run started: what a later review compares against. */
  baseline: { path: string; identity: Identity; label: string }[];
  /** What the index could not read when that run started. */
  unreadable: string[];
  /** Why the review failed. */
  why: string;
  /** The workspace roots of the policy that ran it. */
  roots: string[];
  /** For a run still in flight: the process running it, by pid and start time (`processStart`). */
  owner?: { pid: number; start: string } | undefined;
}

/** When the process `pid` started (field 22 of `/proc/<pid>/stat`), or undefined when there is none. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that recorded a run in flight is still running (a pid handed out again is another process). */
function ownerAlive(owner: { pid: number; start: string }): boolean {
  return processStart(owner.pid) === owner.start;
}

/** The folder of the markers in the quarantine directory. */
const FOLDER = "unreviewed";

/**
 * Runs whose review failed — or never happened: every run is recorded as it starts and forgotten
 * once reviewed, so a run whose process was killed meanwhile (SIGTERM, SIGHUP, a second Ctrl-C)
 * stays recorded — remembered as marker files in the quarantine folder: until a later
 * review of the tree against the baseline of that run completes, no sandbox starts in the
 * workspace, and nothing the run left is taken for what was there before (fail closed). Markers
 * outlive the process, so the next `gatehouse run` reviews what this one could not.
 * Contract: `record` throws when the marker cannot be written (the caller then refuses further
 * runs in this process); `load` never throws and skips files that are not markers of this workspace.
 */
export class UnreviewedRuns {
  /** `roots`: the workspace roots (real paths); markers of other workspaces are left alone. */
  constructor(private readonly roots: readonly string[]) {}

  /**
   * Writes the marker of a run (its baseline and why its review failed, or, with `inFlight`, why
   * it would need one: the run is starting, and its marker is removed once its review is done);
   * returns the marker's path.
   */
  record(
    quarantine: () => string,
    run: { baseline: Baseline; unreadable: Iterable<string>; why: string; inFlight?: boolean },
  ): string {
    const baseline = [...run.baseline.values()].map((m) => ({
      path: m.path,
      identity: m.identity,
      label: m.write?.label ?? "",
    }));
    const start = run.inFlight ? processStart(process.pid) : undefined;
    if (run.inFlight && start === undefined) throw new Error("/proc/self/stat could not be read");
    const owner = start === undefined ? undefined : { pid: process.pid, start };
    const body = JSON.stringify({ roots: this.roots, baseline, unreadable: [...run.unreadable], why: run.why, owner });
    // Random too: two runs of a parallel batch may start in the same millisecond from one baseline.
    const salt = `${Date.now()}:${randomBytes(8).toString("hex")}`;
    const name = `${createHash("sha256").update(body).update(salt).digest("hex").slice(0, 32)}.json`;
    const folder = path.join(quarantine(), FOLDER);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const marker = path.join(folder, name);
    writeFileSync(marker, body, { mode: 0o600 });
    return marker;
  }

  /** The markers of this workspace, except those of runs still in flight in a live process. */
  load(quarantine: () => string): UnreviewedRun[] {
    let folder: string;
    let names: string[];
    try {
      folder = path.join(quarantine(), FOLDER);
      names = readdirSync(folder);
    } catch {
      return [];
    }
    const runs: UnreviewedRun[] = [];
    for (const name of names) {
      const marker = path.join(folder, name);
      try {
        const data = JSON.parse(readFileSync(marker, "utf8")) as Partial<UnreviewedRun>;
        if (!Array.isArray(data.baseline) || !Array.isArray(data.unreadable) || typeof data.why !== "string") continue;
        if (!Array.isArray(data.roots) || !data.roots.some((r) => this.roots.includes(r))) continue;
        const owner = data.owner;
        if (
          owner !== undefined &&
          typeof owner?.pid === "number" &&
          typeof owner.start === "string" &&
          ownerAlive(owner)
        ) {
          continue;
        }
        runs.push({ marker, baseline: data.baseline, unreadable: data.unreadable, why: data.why, roots: data.roots });
      } catch {
        // not a marker of ours
      }
    }
    return runs;
  }

  /** Forgets a run in flight by its marker (what `record` returned) once it was reviewed. */
  discard(marker: string): void {
    rmSync(marker, { force: true });
    try {
      // The folder goes when its last marker does (another run may have just recorded one: then it stays).
      rmdirSync(path.dirname(marker));
    } catch {
      // not empty, or gone
    }
  }

  /** Forgets a run once it was reviewed. */
  forget(run: UnreviewedRun): void {
    rmSync(run.marker, { force: true });
  }
}

/** The baseline of an unreviewed run as a review takes it: each match with its rule (by label). */
export function baselineOfRun(run: UnreviewedRun, rules: readonly DenyRule[]): Baseline {
  const fallback = rules[0];
  const out = new Map<string, DenyMatch>();
  for (const entry of run.baseline) {
    const write = rules.find((r) => r.label === entry.label) ?? fallback;
    const match: DenyMatch = { path: entry.path, identity: entry.identity, writeCoversContents: false };
    if (write) match.write = write;
    out.set(entry.path, match);
  }
  return out;
}
