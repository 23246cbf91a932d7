/**
 * Freezes a JSON-like value and everything reachable from it, in place.
 * Contract: returns the same value; already-frozen subtrees are skipped, so repeated calls are cheap.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
