/**
 * Milliseconds on a monotonic clock, like `performance.now()` but from another origin. Reading
 * `performance` first loads Node's perf_hooks (about 3% of a one-shot agent hook process's
 * instructions); `process.hrtime` is already there.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
