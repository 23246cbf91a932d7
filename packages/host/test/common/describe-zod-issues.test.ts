import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodIssues, formatPath, strictObject } from "../../src/common/describe-zod-issues.ts";
import { parseJsonSource } from "../../src/common/json-source.ts";

function describeAgainst(schema: z.ZodType, text: string): string[] {
  const source = parseJsonSource(text, "c.json");
  const parsed = schema.safeParse(source.value);
  if (parsed.success) throw new Error("expected the schema to reject the input");
  return describeZodIssues(parsed.error, source, "c.json");
}

describe("formatPath", () => {
  it("writes paths the way a person reads them", () => {
    expect(formatPath([])).toBe("(top level)");
    expect(formatPath(["turns", 0, "content", 12, "name"])).toBe("turns[0].content[12].name");
    expect(formatPath([0, "a"])).toBe("[0].a");
    expect(formatPath(["config", "tool-audit", "a b", "$ok_1"])).toBe('config["tool-audit"]["a b"].$ok_1');
  });
});

describe("describeZodIssues", () => {
  it("words bounds on numbers, strings and arrays", () => {
    const schema = z.object({
      n: z.number().max(3),
      s: z.string().min(2),
      list: z.array(z.number()).min(1),
      m: z.number().gt(0),
    });
    expect(describeAgainst(schema, '{"n": 9, "s": "x", "list": [], "m": 0}')).toEqual([
      "c.json:1:7: n: must be <= 3, received 9",
      "c.json:1:15: s: must be at least 2 characters long",
      "c.json:1:28: list: must have at least 1 item",
      "c.json:1:37: m: must be > 0, received 0",
    ]);
  });

  it("names a single allowed literal without 'one of'", () => {
    expect(describeAgainst(z.object({ v: z.literal(1) }), '{"v": 2}')).toEqual([
      "c.json:1:7: v: expected 1, received 2",
    ]);
  });

  it("lists the allowed keys of a strictObject, one line per unknown key", () => {
    const schema = strictObject({ fsync: z.enum(["always", "batch"]).optional() });
    expect(describeAgainst(schema, '{\n "fsnyc": "batch",\n "x": 1\n}')).toEqual([
      "c.json:2:11: fsnyc: unknown key (allowed keys: fsync)",
      "c.json:3:7: x: unknown key (allowed keys: fsync)",
    ]);
  });

  it("summarises each branch of a plain union", () => {
    const schema = z.object({ v: z.union([z.string(), z.number()]) });
    const [line] = describeAgainst(schema, '{"v": true}');
    expect(line).toMatch(/^c\.json:1:7: v: matches none of the allowed forms \(.*string.* \| .*number.*\)$/);
  });

  it("keeps the schema's own message for checks it has no structure for", () => {
    const schema = z.object({ p: z.string().refine((s) => !s.includes(".."), "must not contain '..'") });
    expect(describeAgainst(schema, '{"p": "../x"}')).toEqual(["c.json:1:7: p: must not contain '..'"]);
  });
});
