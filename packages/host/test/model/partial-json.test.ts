import { describe, expect, it } from "vitest";
import { parsePartialJson } from "../../src/model/partial-json.ts";

const ARGUMENT_OBJECTS: Record<string, unknown>[] = [
  { path: "src/index.ts", content: 'export const x = "a\\nb";\n\ttabs "quotes" \\ back\\slash' },
  { command: "ls -la", timeout: 30, env: null, dryRun: false, force: true },
  {
    edits: [
      { oldText: "a", newText: "b" },
      { oldText: "é 中 😀 \u0001", newText: "" },
    ],
    replaceAll: true,
    numbers: [0, -1, 1.5, -2.25e-7, 1e21, 123456789],
    nested: { deeper: { deepest: [[], {}, [[1, [2, [3]]]]] } },
  },
  {},
];

function isPlainValue(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

describe("parsePartialJson", () => {
  it.each(ARGUMENT_OBJECTS.map((o) => [JSON.stringify(o).slice(0, 40), o] as const))(
    "parses every prefix of %s without throwing, ending with the object itself",
    (_name, object) => {
      const text = JSON.stringify(object);
      let previousKeys = 0;
      for (let end = 0; end <= text.length; end++) {
        const value = parsePartialJson(text.slice(0, end));
        expect(isPlainValue(value)).toBe(true);
        if (typeof value !== "object" || value === null) throw new Error(`not an object for prefix ${end}`);
        // Keys only ever appear as the prefix grows; a key never vanishes once complete.
        const keys = Object.keys(value).length;
        expect(keys).toBeGreaterThanOrEqual(previousKeys);
        previousKeys = keys;
      }
      expect(parsePartialJson(text)).toStrictEqual(object);
    },
  );

  it("also handles prefixes of pretty-printed arguments", () => {
    const object = ARGUMENT_OBJECTS[2] as Record<string, unknown>;
    const text = JSON.stringify(object, null, 2);
    for (let end = 0; end < text.length; end++) parsePartialJson(text.slice(0, end));
    expect(parsePartialJson(text)).toStrictEqual(object);
  });

  it.each([
    ['{"path": "src/ind', { path: "src/ind" }],
    ['{"a": [1, 2, {"b": "c', { a: [1, 2, { b: "c" }] }],
    ['{"a": 1, "b', { a: 1 }],
    ['{"a": 1, "b"', { a: 1 }],
    ['{"a": 1, "b": ', { a: 1 }],
    ['{"a": tr', {}],
    ['{"a": [true, nu', { a: [true] }],
    ['{"a": -', {}],
    ['{"a": 12', { a: 12 }],
    ['{"a": 1.', { a: 1 }],
    ['{"a": 1e', { a: 1 }],
    ['{"a": 1e-', { a: 1 }],
    ['{"a": "x\\', { a: "x" }],
    ['{"a": "x\\u00', { a: "x" }],
    ['{"a": "x\\u00e9y', { a: "xéy" }],
    ['{"a": "line\\nnext', { a: "line\nnext" }],
    ['{"a": {}, "b": [', { a: {}, b: [] }],
    ["", {}],
    ["   ", {}],
    ["not json", {}],
    ["}", {}],
    ['{"a": 1} trailing garbage', { a: 1 }],
    ['{"a": 1, oops, "b": 2}', { a: 1 }],
  ])("%j → %j", (text, expected) => {
    expect(parsePartialJson(text)).toStrictEqual(expected);
  });

  it("keeps a __proto__ key as data instead of changing the prototype", () => {
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never throws, even on absurd nesting", () => {
    expect(() => parsePartialJson("[".repeat(1_000_000))).not.toThrow();
    expect(parsePartialJson("[".repeat(10))).toStrictEqual([[[[[[[[[[]]]]]]]]]]);
  });
});
