import { BoundedMatcher } from "./bounded-match.ts";
import { globTest } from "./lazy-minimatch.ts";

/** Entries tested together in one bounded run (each run starts a watchdog thread). */
const BATCH = 256;

/** Options of `filterByGlob`. */
export interface GlobFilterOptions<T> {
  /** The model's glob (minimatch syntax). */
  glob: string;
  /** minimatch options; `orName` also accepts an entry whose last path segment matches. */
  globOptions: { dot?: boolean; matchBase?: boolean; orName?: boolean };
  /** The text of an entry the glob is tested against (a path relative to the search root). */
  text: (entry: T) => string;
  /** The tool, for the message when the glob takes too long ("find", "grep"). */
  tool: string;
  /** The call's abort signal: no batch is matched once it is aborted. */
  signal?: AbortSignal;
}

/**
 * The entries of `source` whose text the model's glob matches, in order.
 * Why: a glob compiles to a regular expression that can backtrack exponentially (`+(a|*)z`,
 * `*a*a*a*a*b` against a long name) and a brace list expands exponentially (`{a,b}{a,b}…`); matched
 * on the main thread, one such pattern froze the host beyond any abort or timeout.
 * Contract: entries are tested in batches, each one run of a `BoundedMatcher`; once the runs of
 * this filter (or of every matcher since the event loop last turned) have taken the matcher's
 * budget together, the iteration throws an Error that names the glob; once `signal` is aborted, it
 * throws the signal's reason instead of matching.
 */
export async function* filterByGlob<T>(source: AsyncIterable<T>, options: GlobFilterOptions<T>): AsyncGenerator<T> {
  const { glob, tool } = options;
  const matcher = new BoundedMatcher(globTest(glob, options.globOptions), {
    subject: `The glob ${JSON.stringify(glob)}`,
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutMessage: (ms) =>
      `The glob ${JSON.stringify(glob)} took more than ${ms / 1000} s to match, so ${tool} stopped: extglobs such as +(a|*), many wildcards in a row (*a*a*a*b) and long brace lists can take exponential time. Simplify the glob.`,
  });
  let batch: T[] = [];
  const matching = () => {
    const hits = matcher.match(batch.map(options.text));
    const kept = hits.map((i) => batch[i] as T);
    batch = [];
    return kept;
  };
  for await (const entry of source) {
    batch.push(entry);
    if (batch.length >= BATCH) yield* matching();
  }
  yield* matching();
}
