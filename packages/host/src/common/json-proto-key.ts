/**
 * The path of a `__proto__` key in a parsed JSON value (the shallowest first), or undefined when there is none.
 * Why: `JSON.parse` keeps `"__proto__"` as an own key, but a schema or merge that copies it by
 * assignment (zod's `z.record` does) sets the copy's prototype instead: the key vanishes from
 * `Object.keys`, so a section written under it is silently ignored while later lookups can find
 * its values through the prototype. No Gatehouse file means anything by the name.
 * Contract: iterative (any depth is safe); each object's own keys are checked before its children.
 */
export function findProtoKey(value: unknown): (string | number)[] | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (current === null || typeof current !== "object") continue;
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [index, item])
      : Object.keys(current).map((key) => [key, (current as Record<string, unknown>)[key]]);
    for (const [key] of entries) if (key === "__proto__") return [...path, key];
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown];
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}
