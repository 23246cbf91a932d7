import { type Case, measureInterleaved } from "../measure.ts";
import type { BenchSection, Figure, ResultRow } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { gatehouseTrial } from "./gatehouse-runner.ts";
import { peerTrial } from "./peer-runner.ts";
import {
  LOOP_WORKLOADS,
  totalCalls,
  W1_ASYNC_HOOKS,
  W1_PARALLEL,
  W1_SEQUENTIAL,
  W2_LONG,
  W2_SHORT,
} from "./workloads.ts";

const FLATNESS_TARGET = 1.5;
/** Each timed sample covers about this many calls (short workloads are repeated). */
const CALLS_PER_SAMPLE = 8000;

/** The agent-loop section: W1 (one message, 1000 calls) and W2 (N turns of one call), per call. */
export const loopSection: BenchSection = {
  name: "loop",
  title: "Agent loop: µs per tool call (no-op tool, no-op before/after hooks, no-op event sink)",
  async run({ runs, warmups, clock, verbose, log }) {
    const cases: Case[] = LOOP_WORKLOADS.map((workload) => ({
      workload: workload.name,
      calls: totalCalls(workload),
      repeat: Math.max(1, Math.round(CALLS_PER_SAMPLE / totalCalls(workload))),
      gatehouse: () => gatehouseTrial(workload),
      peer: () => peerTrial(workload),
    }));
    const samples = await measureInterleaved(cases, { runs, warmups, clock });
    const perCall = new Map<string, { gatehouse: number; peer: number }>();
    const rows: ResultRow[] = [];
    for (const [workload, s] of samples) {
      const gatehouse = median(s.gatehouse);
      const peer = median(s.peer);
      perCall.set(workload, { gatehouse, peer });
      rows.push({ workload, gatehouse_us: round3(gatehouse), peer_us: round3(peer), ratio: round3(gatehouse / peer) });
      if (verbose) {
        const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
        log(`  ${workload}: gatehouse [${fmt(s.gatehouse)}] spread ${(spread(s.gatehouse) * 100).toFixed(0)}%`);
        log(`  ${workload}: peer      [${fmt(s.peer)}] spread ${(spread(s.peer) * 100).toFixed(0)}%`);
      }
    }
    const long = perCall.get(W2_LONG.name)!;
    const short = perCall.get(W2_SHORT.name)!;
    const figures: Figure[] = [
      {
        name: `W2 flatness (µs/turn at ${W2_LONG.callsPerTurn.length} ÷ at ${W2_SHORT.callsPerTurn.length} turns)`,
        gatehouse: round3(long.gatehouse / short.gatehouse),
        peer: round3(long.peer / short.peer),
        target: `≤ ${FLATNESS_TARGET}`,
      },
    ];
    const targets = {
      [W1_PARALLEL.name]: "ratio ≤ 1.0",
      [W1_SEQUENTIAL.name]: "ratio ≤ 1.0",
      [W1_ASYNC_HOOKS.name]: "info: async handlers on both",
    };
    return { rows, figures, targets };
  },
};
