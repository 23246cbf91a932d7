import type { Clock } from "../section.ts";
import { type HostTurnsRun, hostTurnsRun, type Persistence } from "./host-turns.ts";

/** One lockstep round: a long run and several short runs of the same variant, turn by turn. */
export interface LockstepPlan {
  persistence: Persistence;
  longTurns: number;
  shortTurns: number;
  shortRuns: number;
  clock: Clock;
  nextFile: () => string;
}

/** µs per turn of the long run and of the short runs (their turns pooled), over the same time. */
export interface LockstepResult {
  longUs: number;
  shortUs: number;
}

const collect: () => void = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/**
 * Runs one long run and `shortRuns` short runs turn by turn, always advancing whichever is
 * behind in its share of the work, so the short turns are spread evenly over the long run's
 * time. A drift of the machine (another process's disk or CPU load, which makes an fsync cost
 * 0.3 or 5 ms) then weighs on both sides alike. Each run's µs per turn counts only its own work,
 * from the moment it is let go to its next model request or its end.
 * Contract: hosts and files are built before and checked after the timed part; throws on a
 * failed check.
 */
export async function runLockstep(plan: LockstepPlan): Promise<LockstepResult> {
  const make = (turns: number) =>
    hostTurnsRun({ turns, persistence: plan.persistence, file: plan.nextFile(), clock: plan.clock });
  const long = make(plan.longTurns);
  const shorts = Array.from({ length: plan.shortRuns }, () => make(plan.shortTurns));
  const all: HostTurnsRun[] = [long, ...shorts];
  try {
    for (const run of all) await run.setup();
    collect();
    // A run of N turns makes N + 1 model requests, so N + 2 steps.
    const longSteps = plan.longTurns + 2;
    const shortSteps = (plan.shortTurns + 2) * plan.shortRuns;
    let longDone = 0;
    let shortDone = 0;
    let current = 0;
    while (!long.stepped.finished || current < shorts.length) {
      const shortBehind = current < shorts.length && shortDone / shortSteps <= longDone / longSteps;
      if (shortBehind || long.stepped.finished) {
        const run = shorts[current]!;
        shortDone++;
        if (!(await run.stepped.step())) current++;
      } else {
        longDone++;
        await long.stepped.step();
      }
    }
    for (const run of all) run.verify();
    const shortOwn = shorts.reduce((sum, run) => sum + run.stepped.ownUs, 0);
    return { longUs: long.stepped.ownUs / plan.longTurns, shortUs: shortOwn / (plan.shortTurns * plan.shortRuns) };
  } finally {
    for (const run of all) await run.dispose();
  }
}
