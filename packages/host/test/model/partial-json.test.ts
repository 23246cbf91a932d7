import { describe, expect, it } from "vitest";
import { PartialJsonParser, parsePartialJson } from "../../src/model/partial-json.ts";

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

  it("stops at nesting deeper than 256 and keeps what came before", () => {
    const deep = parsePartialJson(`{"a": ${"[".repeat(300)}`) as { a: unknown };
    let depth = 0;
    for (let v: unknown = deep.a; Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBe(255);
    expect(() => JSON.stringify(deep)).not.toThrow();
  });
});

/** Splits text into pieces of pseudo-random sizes (1 to `max`), the same for the same seed. */
function split(text: string, seed: number, max: number): string[] {
  const pieces: string[] = [];
  let state = seed;
  for (let i = 0; i < text.length; ) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const size = 1 + (state % max);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

describe("PartialJsonParser", () => {
  const documents = [
    ...ARGUMENT_OBJECTS.map((o) => JSON.stringify(o)),
    JSON.stringify(ARGUMENT_OBJECTS[2], null, 2),
    '{"a": 1, oops, "b": 2}',
    String.raw`{"n": -12.5e+3, "m": [1.,2e,3], "s": "\u00e9\uZZZZ\q"}`,
    "[true, false, null, nul",
  ];

  it.each(documents.map((d) => [d.slice(0, 30), d] as const))(
    "after each piece of %j gives what parsePartialJson gives for the text so far, whatever the split",
    (_name, text) => {
      for (const [seed, max] of [
        [1, 1],
        [2, 3],
        [3, 7],
        [4, 40],
      ] as const) {
        const parser = new PartialJsonParser();
        let sofar = "";
        for (const piece of split(text, seed, max)) {
          sofar += piece;
          const value = parser.push(piece).value;
          expect(value === undefined ? {} : value).toStrictEqual(parsePartialJson(sofar));
        }
      }
    },
  );

  it("grows its containers in place, so a caller can hold on to the root object", () => {
    const parser = new PartialJsonParser();
    const root = parser.push('{"path": "a.txt", "content": "he').value as Record<string, unknown>;
    parser.push('llo", "list": [1');
    expect(parser.value).toBe(root);
    expect(root).toEqual({ path: "a.txt", content: "hello", list: [1] });
    parser.push(", 2]} trailing");
    expect(root).toEqual({ path: "a.txt", content: "hello", list: [1, 2] });
    expect(parser.stopped).toBe(true);
  });

  it("knows when the text so far is a whole object, without re-reading it", () => {
    const parser = new PartialJsonParser();
    expect(parser.push('{"a": [1, {"b": "}"}]').completeObject).toBe(false);
    expect(parser.push("}").completeObject).toBe(true);
    expect(new PartialJsonParser().push("[1]").completeObject).toBe(false);
    expect(new PartialJsonParser().push('{"a": 1,, x').completeObject).toBe(false);
  });

  it("parses 8 MiB streamed in 16-character pieces in linear time", () => {
    // 16 characters of JSON string text with escapes in it.
    const content = String.raw`abc\\def\"gh\nij`.repeat((8 * 1024 * 1024) / 16);
    const text = `{"path": "big.txt", "content": "${content}"}`;
    const parser = new PartialJsonParser();
    const started = performance.now();
    for (let i = 0; i < text.length; i += 16) parser.push(text.slice(i, i + 16));
    const elapsed = performance.now() - started;
    expect(parser.value).toStrictEqual(JSON.parse(text));
    // Re-parsing the prefix on every piece (the old way) takes hours here; one pass takes well under a second.
    expect(elapsed).toBeLessThan(15_000);
  });

  it("shows a number of more than 1024 characters by its first 1024 until it ends", () => {
    const digits = "1".repeat(2000);
    const parser = new PartialJsonParser();
    for (let i = 0; i < digits.length; i += 10)
      parser.push(i === 0 ? `[${digits.slice(0, 10)}` : digits.slice(i, i + 10));
    expect(parser.value).toStrictEqual([Number("1".repeat(1024))]);
    parser.push("]");
    expect(parser.value).toStrictEqual([Number(digits)]);
  });
});
