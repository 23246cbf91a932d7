import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FsyncMode } from "../../../plugins/tool-audit/src/index.ts";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { type AuditRun, auditRun } from "./audit-run.ts";
import { type AuditedCall, auditedCalls } from "./calls.ts";

/** Issue #4 (kept by #11): at least this many audit records per second with fsync "batch". */
const BATCH_TARGET = 50_000;
/** The extension flushes at every turn end; a busy turn of the model is this many calls. */
const CALLS_PER_TURN = 100;
/** Calls per session: batch mode writes 2 records per call plus start and end. */
const CALLS: Record<FsyncMode, number> = { batch: 25_000, every: 100 };

const collect: () => void = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/**
 * The audit section: records per second through AuditRecorder + the sonic-boom sink, and verify speed.
 * Always on the wall clock, whatever `--clock` says: waiting for fsync is part of what it measures.
 */
export const auditSection: BenchSection = {
  name: "audit",
  title: `Audit: records per second (call_start/call_end pairs, MAC-ed and sealed, written per ${CALLS_PER_TURN}-call turn, then verify)`,
  async run({ runs, warmups, verbose, log }) {
    const dir = mkdtempSync(join(tmpdir(), "gh-bench-audit-rate-"));
    const cwd = join(dir, "project");
    try {
      // "batch": fsync at every turn end too (the workload this figure has always measured);
      // "batch-commit": commit per turn and fsync at most once a second, as the extension runs.
      const modes = ["batch", "batch-commit", "every"] as const;
      type Mode = (typeof modes)[number];
      const fsyncOf = (m: Mode): FsyncMode => (m === "every" ? "every" : "batch");
      const calls = new Map<Mode, AuditedCall[]>(modes.map((m) => [m, auditedCalls(CALLS[fsyncOf(m)], cwd)]));
      const samples = new Map<Mode, AuditRun[]>(modes.map((m) => [m, []]));
      let n = 0;
      for (let round = 0; round < warmups + runs; round++) {
        for (const mode of modes) {
          collect();
          const file = join(dir, `audit-${n++}.jsonl`);
          const run = await auditRun({
            file,
            fsync: fsyncOf(mode),
            fsyncEachTurn: mode === "batch",
            calls: calls.get(mode)!,
            callsPerTurn: CALLS_PER_TURN,
            cwd,
          });
          if (round >= warmups) samples.get(mode)!.push(run);
        }
      }
      const rate = (runs: AuditRun[], ms: (r: AuditRun) => number) => runs.map((r) => r.records / (ms(r) / 1000));
      const batchWrite = rate(samples.get("batch")!, (r) => r.writeMs);
      const commitWrite = rate(samples.get("batch-commit")!, (r) => r.writeMs);
      const everyWrite = rate(samples.get("every")!, (r) => r.writeMs);
      const verify = rate(samples.get("batch")!, (r) => r.verifyMs);
      if (verbose) {
        const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(" ");
        log(`  batch write [${fmt(batchWrite)}] spread ${(spread(batchWrite) * 100).toFixed(0)}%`);
        log(`  batch commit [${fmt(commitWrite)}] spread ${(spread(commitWrite) * 100).toFixed(0)}%`);
        log(`  every write [${fmt(everyWrite)}] spread ${(spread(everyWrite) * 100).toFixed(0)}%`);
        log(`  verify      [${fmt(verify)}] spread ${(spread(verify) * 100).toFixed(0)}%`);
      }
      const records = (m: FsyncMode) => 2 * CALLS[m] + 2;
      const figures: Figure[] = [
        {
          name: `audit records/s, fsync "batch" (${records("batch")} records per session)`,
          gatehouse: round3(median(batchWrite)),
          target: `≥ ${BATCH_TARGET}`,
        },
        {
          name: `audit records/s, fsync "batch", commit per turn without the per-turn fsync, as the extension runs (${records("batch")} records per session)`,
          gatehouse: round3(median(commitWrite)),
          target: "info",
        },
        {
          name: `audit records/s, fsync "every" (${records("every")} records per session)`,
          gatehouse: round3(median(everyWrite)),
          target: "info",
        },
        {
          name: `audit verify records/s (verifyAuditFile over the batch file, with key and seals)`,
          gatehouse: round3(median(verify)),
          target: "info",
        },
      ];
      return { rows: [], figures, targets: {} };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
