import type { Clock } from "./section.ts";

/** One prepared run of a runtime: built untimed, then timed, then checked untimed. */
export interface Trial {
  run(): Promise<void>;
  /** Throws unless the run did the expected work. */
  verify(): void;
}

/** One workload, prepared afresh for every run on both runtimes. */
export interface Case {
  workload: string;
  /** Tool calls in one trial, the unit the time is divided by. */
  calls: number;
  /** Trials run back to back in one timed sample, so that short workloads are not timer noise. */
  repeat: number;
  gatehouse: () => Trial;
  peer: () => Trial;
}

/** Per-call samples in µs, one per measured run. */
export interface Samples {
  gatehouse: number[];
  peer: number[];
}

const collect: () => void = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/** Microseconds since an arbitrary origin on the chosen clock. */
function nowUs(clock: Clock): number {
  if (clock === "wall") return performance.now() * 1000;
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function timeOne(prepare: () => Trial, c: Case, clock: Clock): Promise<number> {
  const trials = Array.from({ length: c.repeat }, prepare);
  collect();
  const start = nowUs(clock);
  for (const trial of trials) await trial.run();
  const elapsedUs = nowUs(clock) - start;
  for (const trial of trials) trial.verify();
  return elapsedUs / (c.calls * c.repeat);
}

/**
 * Runs every case on both runtimes in the same process, interleaved: each round visits every
 * case once and alternates which runtime goes first. The first `warmups` rounds are discarded.
 * Contract: returns `runs` samples per runtime per case, keyed by workload.
 */
export async function measureInterleaved(
  cases: readonly Case[],
  options: { runs: number; warmups: number; clock: Clock },
): Promise<Map<string, Samples>> {
  const samples = new Map<string, Samples>(cases.map((c) => [c.workload, { gatehouse: [], peer: [] }]));
  for (let round = 0; round < options.warmups + options.runs; round++) {
    for (const c of cases) {
      const order = round % 2 === 0 ? (["gatehouse", "peer"] as const) : (["peer", "gatehouse"] as const);
      for (const runtime of order) {
        const us = await timeOne(c[runtime], c, options.clock);
        if (round >= options.warmups) samples.get(c.workload)![runtime].push(us);
      }
    }
  }
  return samples;
}
