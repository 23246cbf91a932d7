import { describe, expect, it } from "vitest";
import { argsChanged, snapshotArgs } from "../src/args-snapshot.ts";

/** The reference: the two JSON texts compared as data, key order aside (what the audit always meant). */
function byJson(start: unknown, end: unknown): boolean {
  const a = JSON.stringify(start);
  const b = JSON.stringify(end);
  if (a === undefined || b === undefined) return true;
  const same = (x: unknown, y: unknown): boolean => {
    if (x === y) return true;
    if (x === null || y === null || typeof x !== "object" || typeof y !== "object") return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x);
    if (kx.length !== Object.keys(y).length) return false;
    return kx.every(
      (k) => Object.hasOwn(y, k) && same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]),
    );
  };
  return a !== b && !same(JSON.parse(a), JSON.parse(b));
}

const date = new Date("2026-01-02T03:04:05.000Z");
const big = "x".repeat(100_000);
/** `[1, <hole>, 3]`. */
const holey: unknown[] = [1, 2, 3];
delete holey[1];

/** Start/end pairs: equal, reordered, changed deep down, and values outside plain JSON. */
const pairs: [string, unknown, unknown][] = [
  ["same flat", { path: "a.ts", limit: 3 }, { path: "a.ts", limit: 3 }],
  ["reordered keys", { path: "a.ts", limit: 3 }, { limit: 3, path: "a.ts" }],
  ["changed string", { path: "a.ts" }, { path: "b.ts" }],
  ["same long string, another copy", { content: big }, { content: `${big.slice(0, -1)}x` }],
  ["long string changed at the end", { content: big }, { content: `${big.slice(0, -1)}y` }],
  ["number changed", { limit: 3 }, { limit: 4 }],
  ["-0 and 0", { n: -0 }, { n: 0 }],
  ["NaN becomes null", { n: Number.NaN }, { n: null }],
  ["Infinity and null", { n: Number.POSITIVE_INFINITY }, { n: null }],
  ["key added", { a: 1 }, { a: 1, b: 2 }],
  ["key removed", { a: 1, b: 2 }, { a: 1 }],
  ["undefined field is no field", { a: 1 }, { a: 1, b: undefined }],
  ["undefined field at the start", { a: 1, b: undefined }, { a: 1 }],
  ["nested edit changed", { edits: [{ oldText: "a", newText: "b" }] }, { edits: [{ oldText: "a", newText: "c" }] }],
  ["nested same", { edits: [{ oldText: "a", newText: "b" }] }, { edits: [{ newText: "b", oldText: "a" }] }],
  ["array longer", { xs: [1, 2] }, { xs: [1, 2, 3] }],
  ["array order", { xs: [1, 2] }, { xs: [2, 1] }],
  ["array vs object", { xs: [1] }, { xs: { 0: 1 } }],
  ["hole becomes null", { xs: holey }, { xs: [1, null, 3] }],
  ["undefined item becomes null", { xs: [1, undefined, 3] }, { xs: [1, null, 3] }],
  ["Date and its ISO text", { at: "2026-01-02T03:04:05.000Z" }, { at: date }],
  ["Date then another text", { at: date }, { at: "2027-01-01T00:00:00.000Z" }],
  ["toJSON object", { v: { toJSON: () => "t" } }, { v: "t" }],
  ["function field dropped", { a: 1, f: () => 1 }, { a: 1 }],
  ["null proto", Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
  ["class instance", { m: new Map([["a", 1]]) }, { m: {} }],
  ["__proto__ key", JSON.parse('{"__proto__": {"a": 1}}'), JSON.parse('{"__proto__": {"a": 2}}')],
  ["__proto__ key same", JSON.parse('{"__proto__": {"a": 1}}'), JSON.parse('{"__proto__": {"a": 1}}')],
  ["not an object", "text", "text"],
  ["string vs number", { a: "1" }, { a: 1 }],
];

describe("a call's argument snapshot", () => {
  it.each(pairs)("%s: changed exactly when the JSON data differs", (_name, start, end) => {
    expect(argsChanged(snapshotArgs(start), end)).toBe(byJson(start, end));
  });

  it("keeps what the arguments were, even when the object is changed in place afterwards", () => {
    const args = { path: "a.ts", edits: [{ oldText: "a", newText: "b" }] };
    const snapshot = snapshotArgs(args);
    const original = structuredClone(args);
    args.path = "b.ts";
    (args.edits[0] as { newText: string }).newText = "z";
    expect(argsChanged(snapshot, args)).toBe(true);
    expect(argsChanged(snapshot, original)).toBe(false);
  });

  it("arguments that cannot be serialized (a cycle, a BigInt) count as changed", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(argsChanged(snapshotArgs(cyclic), { a: 1 })).toBe(true);
    expect(argsChanged(snapshotArgs({ n: 1n }), { n: 1n })).toBe(true);
    expect(argsChanged(snapshotArgs({ a: 1 }), cyclic)).toBe(true);
  });
});
