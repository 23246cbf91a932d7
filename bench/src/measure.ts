import type { Clock } from "./section.ts";

/** One prepared run of a runtime: built untimed, then timed, then checked untimed. */
export interface Trial {
  /** Untimed preparation that must be awaited (e.g. creating a host). */
  setup?(): Promise<void>;
  run(): Promise<void>;
  /** Throws (or rejects) unless the run did the expected work. */
  verify(): void | Promise<void>;
  /** Untimed clean-up after `verify` (e.g. closing a host, removing its files). */
  dispose?(): Promise<void>;
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

/** One workload measured under several named variants of one runtime (e.g. bare vs with plugins). */
export interface VariantCase<V extends string> {
  workload: string;
  /** Units of work in one trial (calls, records), the unit the time is divided by. */
  calls: number;
  /** Trials run back to back in one timed sample. */
  repeat: number;
  variants: Record<V, () => Trial>;
}

/** Per-call samples in µs, one per measured run. */
export interface Samples {
  gatehouse: number[];
  peer: number[];
}

const collect: () => void = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/** Microseconds since an arbitrary origin on the chosen clock. */
export function nowUs(clock: Clock): number {
  if (clock === "wall") return performance.now() * 1000;
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function timeOne(prepare: () => Trial, unit: { calls: number; repeat: number }, clock: Clock): Promise<number> {
  const trials = Array.from({ length: unit.repeat }, prepare);
  for (const trial of trials) await trial.setup?.();
  collect();
  const start = nowUs(clock);
  for (const trial of trials) await trial.run();
  const elapsedUs = nowUs(clock) - start;
  for (const trial of trials) await trial.verify();
  for (const trial of trials) await trial.dispose?.();
  return elapsedUs / (unit.calls * unit.repeat);
}

/**
 * Runs every case under every variant in the same process, interleaved: each round visits every
 * case once and rotates which variant goes first. The first `warmups` rounds are discarded.
 * Contract: returns `runs` samples (µs per unit) per variant per case, keyed by workload.
 */
export async function measureVariants<V extends string>(
  cases: readonly VariantCase<V>[],
  names: readonly V[],
  options: { runs: number; warmups: number; clock: Clock },
): Promise<Map<string, Record<V, number[]>>> {
  const empty = () => Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<V, number[]>;
  const samples = new Map<string, Record<V, number[]>>(cases.map((c) => [c.workload, empty()]));
  for (let round = 0; round < options.warmups + options.runs; round++) {
    for (const c of cases) {
      const shift = round % names.length;
      const order = [...names.slice(shift), ...names.slice(0, shift)];
      for (const name of order) {
        const us = await timeOne(c.variants[name], c, options.clock);
        if (round >= options.warmups) samples.get(c.workload)![name].push(us);
      }
    }
  }
  return samples;
}

/**
 * Runs every case on both runtimes in the same process, interleaved: each round visits every
 * case once and alternates which runtime goes first. The first `warmups` rounds are discarded.
 * Contract: returns `runs` samples per runtime per case, keyed by workload.
 */
export function measureInterleaved(
  cases: readonly Case[],
  options: { runs: number; warmups: number; clock: Clock },
): Promise<Map<string, Samples>> {
  const variantCases = cases.map(
    (c): VariantCase<keyof Samples> => ({
      workload: c.workload,
      calls: c.calls,
      repeat: c.repeat,
      variants: { gatehouse: c.gatehouse, peer: c.peer },
    }),
  );
  return measureVariants(variantCases, ["gatehouse", "peer"], options);
}
