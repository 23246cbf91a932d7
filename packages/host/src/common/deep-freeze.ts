/**
 * Freezes a JSON-like value and everything reachable from it, in place.
 * Contract: returns the same value; already-frozen subtrees are skipped, so repeated calls are
 * cheap. Iterative: a value nested deeper than the call stack (a model's arguments can be) is
 * frozen whole instead of throwing a RangeError.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object" || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const key of Object.keys(next)) pending.push((next as Record<string, unknown>)[key]);
  }
  return value;
}
