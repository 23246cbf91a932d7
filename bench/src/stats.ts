/** Median of a non-empty sample. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty sample");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Relative spread (max - min) / median, a quick noise indicator. */
export function spread(values: readonly number[]): number {
  return (Math.max(...values) - Math.min(...values)) / median(values);
}

/** Rounds to 3 decimals, as results.json stores figures. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
