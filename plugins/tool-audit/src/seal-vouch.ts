import type { MacKey } from "./record.ts";
import type { Seal } from "./seal.ts";
import type { SealBucket } from "./seal-buckets.ts";
import { finished, readSeal } from "./seal-lookup.ts";

/** What a session recorded of another's authentic seal when it started. */
export interface SessionClaim {
  ordinal: number;
  count: number;
  head: string;
  closed: boolean;
}

/** Runs of session numbers, `[first, last]`, ascending and apart. */
export type OrdinalRanges = [number, number][];

/** The most earlier seals read to find the sessions that finished since the previous one started. */
const MAX_VOUCH_READS = 256;

/** Whether `n` lies in one of `ranges`. */
export function inRanges(n: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([first, last]) => n >= first && n <= last);
}

/** Runs merged (overlapping or adjacent ones joined), ascending, cut to the numbers above `above`. */
export function mergeRanges(runs: readonly (readonly [number, number])[], above: number): OrdinalRanges {
  const ranges: OrdinalRanges = [];
  const sorted = runs
    .filter(([, last]) => last > above)
    .map(([first, last]): [number, number] => [Math.max(first, above + 1), last])
    .sort((a, b) => a[0] - b[0]);
  for (const [first, last] of sorted) {
    const prev = ranges.at(-1);
    if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
    else ranges.push([first, last]);
  }
  return ranges;
}

const claimOf = (seal: Seal): SessionClaim => ({
  ordinal: seal.ordinal,
  count: seal.count,
  head: seal.head,
  closed: seal.closed,
});

/**
 * What the session numbered `ordinal` vouches for when it starts, besides its predecessor
 * (`previous`): the final seal of every earlier session that finished since its predecessor
 * started. Those are the sessions above the predecessor's `settled` that it had not seen finished
 * (`seen`); sessions overlap routinely (an agent hook opens one per call), and without this a
 * session that closed after a later one started was vouched for by nobody, so its seal could be
 * rolled back and its end cut unseen. Also returns this session's own `seen`: the numbers above
 * its `settled` it knows finished, so that the next session reads only the rest.
 * Contract: reads only authentic seals, at most `MAX_VOUCH_READS`; never throws.
 */
export function vouchFinished(options: {
  dir: string;
  ordinal: number;
  prior: Seal | undefined;
  settled: number;
  host: string;
  buckets: readonly SealBucket[];
  key: MacKey;
}): { finished: SessionClaim[]; seen: OrdinalRanges } {
  const { dir, ordinal, prior, settled, host, buckets, key } = options;
  const from = prior ? prior.settled : settled;
  const priorSeen = prior?.seen ?? [];
  const vouched: SessionClaim[] = [];
  const seen: [number, number][] = [];
  let reads = 0;
  for (let n = from + 1; n < ordinal - 1; n++) {
    const known = priorSeen.find(([first, last]) => n >= first && n <= last);
    if (known) {
      n = known[1]; // vouched for by an earlier session already
      continue;
    }
    if (reads++ >= MAX_VOUCH_READS) break;
    const seal = readSeal(dir, n, buckets, key);
    if (!seal || !finished(seal, host)) continue;
    vouched.push(claimOf(seal));
    seen.push([n, n]);
  }
  if (prior && finished(prior, host)) seen.push([prior.ordinal, prior.ordinal]);
  return { finished: vouched, seen: mergeRanges([...priorSeen, ...seen], settled) };
}
