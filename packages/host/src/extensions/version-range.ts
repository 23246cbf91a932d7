/** A version as [major, minor, patch]. */
type Version = readonly [number, number, number];

/** Versions from `low` (inclusive) to `high` (exclusive); an absent end is open. */
interface Interval {
  low?: Version;
  high?: Version;
}

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/;

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The numbers a partial version gives (up to the first wildcard or missing part). */
function partial(text: string): number[] | undefined {
  const m = PARTIAL.exec(text);
  if (!m) return undefined;
  const parts: number[] = [];
  for (const part of m.slice(1)) {
    if (part === undefined || !/^\d+$/.test(part)) break;
    parts.push(Number(part));
  }
  return parts;
}

const at = (parts: readonly number[]): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];

/** The first version after everything `parts` covers (`1.2` → 1.3.0); undefined for `*`. */
function after(parts: readonly number[]): Version | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return [(parts[0] ?? 0) + 1, 0, 0];
  if (parts.length === 2) return [parts[0] ?? 0, (parts[1] ?? 0) + 1, 0];
  return [parts[0] ?? 0, parts[1] ?? 0, (parts[2] ?? 0) + 1];
}

/** The interval of one comparator (`^1.2`, `~1`, `>=1.4`, `<2`, `1.x`), or undefined if it is not one. */
function comparator(text: string): Interval | undefined {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(text);
  const parts = m?.[2] ? partial(m[2]) : undefined;
  if (!m || !parts) return undefined;
  const op = m[1] ?? "=";
  const low = at(parts);
  switch (op) {
    case "^": {
      // The first non-zero part given is the one that may not change (npm's caret).
      const fixed = parts.findIndex((p) => p !== 0);
      const keep = fixed === -1 ? parts.length : fixed + 1;
      return { low, ...optional(after(parts.slice(0, Math.max(1, keep)))) };
    }
    case "~":
      return { low, ...optional(after(parts.slice(0, Math.min(Math.max(parts.length, 1), 2)))) };
    case ">=":
      return { low };
    case ">":
      return parts.length === 0 ? { high: [0, 0, 0] } : { ...optional(after(parts), "low") };
    case "<":
      return { high: low };
    case "<=":
      return { ...optional(after(parts)) };
    default:
      return { low, ...optional(after(parts)) };
  }
}

function optional(version: Version | undefined, key: "low" | "high" = "high"): Interval {
  return version ? { [key]: version } : {};
}

function within(version: Version, interval: Interval): boolean {
  return (
    (!interval.low || compare(version, interval.low) >= 0) && (!interval.high || compare(version, interval.high) < 0)
  );
}

/**
 * Whether `version` (plain `major.minor.patch`) satisfies the semver `range`: comparators joined by
 * spaces (all must hold) and alternatives by `||`, with npm's meaning of `^`, `~`, `>=`, `>`, `<=`,
 * `<`, `=`, partial versions and `x`/`*` wildcards. Returns undefined when `range` is not such a
 * range (pre-release tags and hyphen ranges included), so the caller can say so.
 */
export function satisfiesRange(version: string, range: string): boolean | undefined {
  const parsed = partial(version);
  if (parsed?.length !== 3) return undefined;
  const v = at(parsed);
  const alternatives = range.split("||").map((a) => a.trim());
  let any = false;
  for (const alternative of alternatives) {
    const comparators = alternative === "" ? ["*"] : alternative.replace(/(\^|~|>=|<=|>|<|=)\s+/g, "$1").split(/\s+/);
    const intervals = comparators.map(comparator);
    if (intervals.some((i) => i === undefined)) return undefined;
    if ((intervals as Interval[]).every((i) => within(v, i))) any = true;
  }
  return any;
}
