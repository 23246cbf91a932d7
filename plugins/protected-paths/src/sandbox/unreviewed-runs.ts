import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
}

/** The folder of the markers in the quarantine directory. */
const FOLDER = "unreviewed";

/**
 * Runs whose review failed, remembered as marker files in the quarantine folder: until a later
 * review of the tree against the baseline of that run completes, no sandbox starts in the
 * workspace, and nothing the run left is taken for what was there before (fail closed). Markers
 * outlive the process, so the next `gatehouse run` reviews what this one could not.
 * Contract: `record` throws when the marker cannot be written (the caller then refuses further
 * runs in this process); `load` never throws and skips files that are not markers of this workspace.
 */
export class UnreviewedRuns {
  /** `roots`: the workspace roots (real paths); markers of other workspaces are left alone. */
  constructor(private readonly roots: readonly string[]) {}

  /** Writes the marker of a run (its baseline and why its review failed); returns the marker's path. */
  record(quarantine: () => string, run: { baseline: Baseline; unreadable: Iterable<string>; why: string }): string {
    const baseline = [...run.baseline.values()].map((m) => ({
      path: m.path,
      identity: m.identity,
      label: m.write?.label ?? "",
    }));
    const body = JSON.stringify({ roots: this.roots, baseline, unreadable: [...run.unreadable], why: run.why });
    const name = `${createHash("sha256").update(body).update(String(Date.now())).digest("hex").slice(0, 32)}.json`;
    const folder = path.join(quarantine(), FOLDER);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const marker = path.join(folder, name);
    writeFileSync(marker, body, { mode: 0o600 });
    return marker;
  }

  /** The markers of this workspace. */
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
        runs.push({ marker, baseline: data.baseline, unreadable: data.unreadable, why: data.why, roots: data.roots });
      } catch {
        // not a marker of ours
      }
    }
    return runs;
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
