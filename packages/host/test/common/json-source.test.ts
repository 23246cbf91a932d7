import { describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { parseJsonSource } from "../../src/common/json-source.ts";
import { findJsonSyntaxError } from "../../src/common/json-syntax-error.ts";

function syntaxError(text: string, file = "f.json"): GatehouseError {
  try {
    parseJsonSource(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe("GH_JSON_SYNTAX");
    return error as GatehouseError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

const VALID = [
  "0",
  "-0",
  "1.5e10",
  "-2.25E-3",
  "1e+2",
  "123456789012345678901234567890",
  "0.1",
  "1E400",
  '""',
  '"plain"',
  '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t"',
  '"\\u00e9\\u4e2d\\ud83d\\ude00 \\uD800 lone"',
  '"raw unicode: é 中 😀"',
  "true",
  "false",
  "null",
  "[]",
  "{}",
  " \t\r\n [ 1 , [ 2 , [ 3 , [ ] ] ] , { } ] \n",
  '{"a":{"b":{"c":[1,{"d":null}]}},"e":[true,false],"f":"x"}',
  '{"dup":1,"z":{"dup":2},"10":1,"2":2}',
  '{"__proto__":{"polluted":true},"x":1}',
  '{"":"empty key","a b":[-1.0e-0]}',
  `[${"[".repeat(50)}${"]".repeat(50)}]`,
];

describe("parseJsonSource accepts what JSON.parse accepts", () => {
  it.each(VALID)("gives the same value as JSON.parse for %s, and the syntax scanner agrees", (text) => {
    const { value } = parseJsonSource(text, "f.json");
    expect(value).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it("the syntax scanner agrees with JSON.parse on thousands of generated and mutated documents", () => {
    const random = seeded(42);
    const alphabet = ' \t\n{}[],:"\\/-+.0123456789eEtrufalsn\u00e9\u{1F600}x';
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const text = JSON.stringify(randomValue(random, 4), null, n % 3 === 0 ? 2 : undefined);
      expect(findJsonSyntaxError(text)).toBeUndefined();
      const at = Math.floor(random() * (text.length + 1));
      const ch = [...alphabet][Math.floor(random() * [...alphabet].length)] as string;
      const mutated = random() < 0.5 ? text.slice(0, at) + ch + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      let nativeOk = true;
      try {
        JSON.parse(mutated);
      } catch {
        nativeOk = false;
      }
      expect(findJsonSyntaxError(mutated) === undefined, mutated).toBe(nativeOk);
      checked++;
    }
    expect(checked).toBe(3000);
  });

  it("keeps __proto__ as an own property like JSON.parse, without touching the prototype", () => {
    const value = parseJsonSource('{"__proto__":{"polluted":true}}', "f.json").value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("handles nesting far deeper than the call stack allows recursion", () => {
    const depth = 200_000;
    const text = "[".repeat(depth) + "]".repeat(depth);
    let value = parseJsonSource(text, "deep.json").value;
    let levels = 0;
    while (Array.isArray(value) && value.length > 0) {
      value = value[0];
      levels++;
    }
    expect(levels).toBe(depth - 1);
  });

  it("parses a multi-megabyte document in linear time", () => {
    const doc = {
      turns: Array.from({ length: 20_000 }, (_, i) => ({
        content: [
          { type: "text", text: `line ${i} with \\"escapes\\" and é` },
          { n: i * 1.5, ok: i % 2 === 0 },
        ],
      })),
    };
    const text = JSON.stringify(doc, null, 2);
    expect(text.length).toBeGreaterThan(3_000_000);
    const started = performance.now();
    const source = parseJsonSource(text, "big.json");
    const last = source.locate(["turns", 19_998, "content", 1, "ok"]);
    const elapsed = performance.now() - started;
    expect(text.split("\n")[last.line - 1]?.slice(last.column - 1)).toBe("true");
    expect(source.value).toStrictEqual(doc);
    expect(elapsed).toBeLessThan(2_000);
  });
});

describe("parseJsonSource positions", () => {
  const text = ["{", '  "turns": [', '    { "content": [1, "two", {"name": 3}] },', "    {}", "  ]", "}"].join("\n");
  const source = parseJsonSource(text, "s.json");

  it("locates every value by path, 1-based", () => {
    expect(source.locate([])).toEqual({ line: 1, column: 1 });
    expect(source.locate(["turns"])).toEqual({ line: 2, column: 12 });
    expect(source.locate(["turns", 0])).toEqual({ line: 3, column: 5 });
    expect(source.locate(["turns", 0, "content", 1])).toEqual({ line: 3, column: 22 });
    expect(source.locate(["turns", 0, "content", 2, "name"])).toEqual({ line: 3, column: 38 });
    expect(source.locate(["turns", 1])).toEqual({ line: 4, column: 5 });
  });

  it("locates a missing key or index at its closest existing parent", () => {
    expect(source.locate(["turns", 1, "content"])).toEqual({ line: 4, column: 5 });
    expect(source.locate(["turns", 7, "x"])).toEqual({ line: 2, column: 12 });
    expect(source.locate(["nope"])).toEqual({ line: 1, column: 1 });
    expect(source.locate(["turns", 0, "content", 0, "deeper"])).toEqual({ line: 3, column: 19 });
  });

  it("finds keys written with escapes and values after nested containers", () => {
    const text = '{"skip": {"x": ["}", "\\"", [{}]]}, "a\\"b": [[1], "]", 2]}';
    const nested = parseJsonSource(text, "f");
    expect(nested.locate(['a"b', 2])).toEqual({ line: 1, column: text.indexOf("2]}") + 1 });
    expect(nested.locate(['a"b', 1])).toEqual({ line: 1, column: text.indexOf('"]"') + 1 });
    expect(nested.locate(["skip", "x", 2, 0])).toEqual({ line: 1, column: text.indexOf("{}") + 1 });
  });

  it("accepts numeric strings as array indexes", () => {
    expect(source.locate(["turns", "1"])).toEqual({ line: 4, column: 5 });
  });

  it("refuses a key written twice in one object (JSON.parse would keep the last silently), where the second one is", () => {
    expect(() => parseJsonSource('{"a": 1,\n "a": 2}', "f")).toThrow('f:2:2: "a" a second time in one object');
    expect(() => parseJsonSource('[{"a": {"b": 1, "c": [{"b": 2}], "b": 3}}]', "f")).toThrow(
      'f:1:34: "b" a second time',
    );
    expect(() => parseJsonSource('{"\\u0061": 1, "a": 2}', "f")).toThrow('"a" a second time');
    expect(parseJsonSource('{"a": "\\"a\\": 1", "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}', "f").value).toEqual({
      a: '"a": 1',
      b: { a: 2 },
      c: [{ a: 3 }, { a: 4 }],
    });
  });
});

describe("parseJsonSource syntax errors", () => {
  it.each([
    ["", "f.json:1:1: unexpected end of file — expected a value"],
    ["   \n  ", "f.json:2:3: unexpected end of file — expected a value"],
    ['{"a": }', "f.json:1:7: unexpected '}' — expected a value"],
    ["[1, 2", "f.json:1:6: unexpected end of file — expected ',' or ']'"],
    ['{\n  "a": 1\n  "b": 2\n}', "f.json:3:3: unexpected '\"' — expected ',' or '}'"],
    ["[1, 2,]", "f.json:1:6: trailing comma before ']' — expected a value"],
    ['{\n  "a": 1,\n}', "f.json:2:9: trailing comma before '}' — expected a property name in double quotes"],
    ['{"a": "abc', "f.json:1:7: unterminated string — expected a closing '\"'"],
    ['{"a": "ab\nc"}', "f.json:1:7: unterminated string — expected a closing '\"' before the end of the line"],
    ['"a\tb"', "f.json:1:3: unexpected control character U+0009 in a string — expected an escape like \\t or \\u0000"],
    [
      '"bad \\x escape"',
      "f.json:1:6: invalid escape '\\x' — expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
    ],
    ['"\\u12G4"', "f.json:1:2: invalid escape '\\u12G4' — expected four hex digits after \\u"],
    [
      '{\n  // note\n  "a": 1\n}',
      "f.json:2:3: unexpected comment (JSON has no comments) — expected a property name in double quotes",
    ],
    ["[1 /* c */]", "f.json:1:4: unexpected comment (JSON has no comments) — expected ',' or ']'"],
    ["{'a': 1}", 'f.json:1:2: unexpected "\'" — expected a property name in double quotes'],
    ['{"a" 1}', "f.json:1:6: unexpected '1' — expected ':' after the property name"],
    ["[undefined]", "f.json:1:2: unexpected 'undefined' — expected a value"],
    ["[tru]", "f.json:1:2: unexpected 'tru' — expected a value"],
    ["NaN", "f.json:1:1: unexpected 'NaN' — expected a value"],
    ["[01]", "f.json:1:2: invalid number '01' — expected no leading zeros"],
    ["[-]", "f.json:1:3: unexpected ']' — expected a digit after '-'"],
    ["[1.]", "f.json:1:4: unexpected ']' — expected a digit after '.'"],
    ["[1e+]", "f.json:1:5: unexpected ']' — expected a digit in the exponent"],
    ["[.5]", "f.json:1:2: unexpected '.' — expected a value"],
    ["[+1]", "f.json:1:2: unexpected '+' — expected a value"],
    ['{"a": 1} x', "f.json:1:10: unexpected 'x' — expected end of file"],
    ["{} {}", "f.json:1:4: unexpected '{' — expected end of file"],
    ["\uFEFF{}", "f.json:1:1: unexpected character U+FEFF — expected a value"],
    ["[1,,2]", "f.json:1:4: unexpected ',' — expected a value"],
    ["[\n  1\n  2\n]", "f.json:3:3: unexpected '2' — expected ',' or ']'"],
  ])("rejects %j with an exact position and expectation", (text, message) => {
    expect(syntaxError(text).message).toBe(message);
  });

  it("rejects every input JSON.parse rejects in this sample", () => {
    for (const text of ["[", "{", '{"a"', '{"a":', "[1,]", "tru", "nul", "'x'", "0x10", "Infinity", "[1]]"]) {
      expect(() => JSON.parse(text)).toThrow();
      syntaxError(text);
    }
  });

  it("counts columns in UTF-16 code units after astral characters", () => {
    expect(syntaxError('["😀", x]').message).toBe("f.json:1:8: unexpected 'x' — expected a value");
  });
});

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 0 ? 8 : 6));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 2000) - 1000;
    case 3:
      return (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
    case 4:
      return "plain";
    case 5:
      return 'esc "q" \\ / \n \t \u0001 é 中 😀';
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, randomValue(random, depth - 1)]),
      );
  }
}
