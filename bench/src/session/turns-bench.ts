import type { Figure, SectionOptions, SectionResult } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import type { Persistence } from "./host-turns.ts";
import { type LockstepResult, runLockstep } from "./lockstep.ts";
import type { SessionDir } from "./session-files.ts";

/** Issue #5: with persistence on, µs per turn at 4000 turns is at most 1.5× that at 250 turns. */
const FLATNESS_TARGET = 1.5;
const LONG = 4000;
const SHORT = 250;
/** Short runs per round: their 2000 turns are spread over the long run's 4000. */
const SHORT_RUNS = 8;
/**
 * Time for the fsync-per-turn variant: one round is ~6000 fsyncs, 2 s on a quiet disk and ~9 s
 * when other processes load it (0.3 to 1.5 ms per fsync here). At least one round, more while
 * the budget lasts (at most `runs`); each round already holds 4000 and 2000 turns over the same
 * stretch of time.
 */
const FSYNC_BUDGET_MS = 5000;

const LABEL: Record<Persistence, string> = {
  none: "no session",
  off: "session, fsync off",
  turn: "session, fsync turn (default)",
};

/**
 * µs per turn through `createHost` over N turns of one no-op call, N = 250 and 4000: without a
 * session, with a session at fsync "off" (what recording costs the CPU), and with the default
 * fsync at every turn end (the target). Each round runs one 4000-turn run and eight 250-turn runs
 * in lockstep (`runLockstep`); flatness is the median over rounds of the ratio within a round.
 * The cheap variants get the usual warm-up and measured rounds (alternating which goes first);
 * the fsync variant runs after them, warmed up by them, for as many rounds as `FSYNC_BUDGET_MS` allows.
 */
export async function benchTurns(dir: SessionDir, options: SectionOptions): Promise<SectionResult> {
  const rounds: Record<Persistence, LockstepResult[]> = { none: [], off: [], turn: [] };
  const round = (persistence: Persistence) =>
    runLockstep({
      persistence,
      longTurns: LONG,
      shortTurns: SHORT,
      shortRuns: SHORT_RUNS,
      clock: options.clock,
      nextFile: dir.nextFile,
    });
  for (let r = 0; r < options.warmups + options.runs; r++) {
    for (const persistence of r % 2 === 0 ? (["none", "off"] as const) : (["off", "none"] as const)) {
      const result = await round(persistence);
      if (r >= options.warmups) rounds[persistence].push(result);
    }
  }
  const fsyncStart = performance.now();
  do {
    rounds.turn.push(await round("turn"));
  } while (rounds.turn.length < options.runs && performance.now() - fsyncStart < FSYNC_BUDGET_MS);

  const figures: Figure[] = [];
  for (const p of ["turn", "off", "none"] as const) {
    const results = rounds[p];
    const ratios = results.map((x) => x.longUs / x.shortUs);
    figures.push(
      {
        name: `${LABEL[p]}: µs/turn at ${SHORT} turns`,
        gatehouse: round3(median(results.map((x) => x.shortUs))),
        target: "info",
      },
      {
        name: `${LABEL[p]}: µs/turn at ${LONG} turns`,
        gatehouse: round3(median(results.map((x) => x.longUs))),
        target: "info",
      },
      {
        name: `${LABEL[p]}: flatness (µs/turn at ${LONG} ÷ at ${SHORT} turns)`,
        gatehouse: round3(median(ratios)),
        target: p === "turn" ? `≤ ${FLATNESS_TARGET}` : "info",
      },
    );
    if (options.verbose) {
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" ");
      options.log(`  ${LABEL[p]}: µs/turn at ${SHORT} [${fmt(results.map((x) => x.shortUs))}]`);
      options.log(`  ${LABEL[p]}: µs/turn at ${LONG} [${fmt(results.map((x) => x.longUs))}]`);
      options.log(
        `  ${LABEL[p]}: flatness [${ratios.map((x) => x.toFixed(3)).join(" ")}] spread ${(spread(ratios) * 100).toFixed(0)}%`,
      );
    }
  }
  figures.push({ name: `${LABEL.turn}: lockstep rounds measured`, gatehouse: rounds.turn.length, target: "info" });
  return { rows: [], figures, targets: {} };
}
