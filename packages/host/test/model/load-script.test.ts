import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { loadScript, parseScript } from "../../src/model/load-script.ts";

function failure(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    return error as GatehouseError;
  }
  throw new Error("expected parseScript to throw");
}

function problems(text: string): string[] {
  const error = failure(() => parseScript(text, "script.json"));
  expect(error.code).toBe("GH_SCRIPT_INVALID");
  const [header, ...lines] = error.message.split("\n");
  expect(header).toBe(`Invalid script script.json (${lines.length === 1 ? "1 problem" : `${lines.length} problems`}):`);
  return lines.map((line) => line.trim());
}

describe("parseScript", () => {
  it("accepts the SPEC example and fills defaults: generated ids and empty arguments", () => {
    const script = parseScript(
      JSON.stringify({
        prompt: "go",
        turns: [
          {
            content: [
              { type: "thinking", thinking: "hmm" },
              { type: "toolCall", id: "A", name: "write", arguments: { path: ".env", content: "X=1" } },
              { type: "toolCall", name: "ls" },
            ],
          },
          {
            content: [{ type: "text", text: "done" }],
            stopReason: "length",
            delayMs: 5,
            usage: { input: 3, output: 4 },
          },
        ],
      }),
      "script.json",
    );
    expect(script).toEqual({
      prompt: "go",
      turns: [
        {
          content: [
            { type: "thinking", thinking: "hmm" },
            { type: "toolCall", id: "A", name: "write", arguments: { path: ".env", content: "X=1" } },
            { type: "toolCall", id: "call_0_2", name: "ls", arguments: {} },
          ],
        },
        { content: [{ type: "text", text: "done" }], stopReason: "length", delayMs: 5, usage: { input: 3, output: 4 } },
      ],
    });
    expect(Object.keys(script.turns[0] ?? {})).toEqual(["content"]);
  });

  it("numbers generated ids by turn and block index", () => {
    const text = '{"turns":[{"content":[]},{"content":[{"type":"text","text":"a"},{"type":"toolCall","name":"x"}]}]}';
    expect(parseScript(text, "s.json").turns[1]?.content[1]).toMatchObject({ id: "call_1_1" });
  });

  it("refuses an empty tool-call id: its result could not be paired with the call", () => {
    const text = '{"turns": [{"content": [\n  {"type": "toolCall", "id": "", "name": "ls"}\n]}]}';
    expect(problems(text)).toEqual(["script.json:2:30: turns[0].content[0].id: must be at least 1 character long"]);
  });

  it("names file, position, field and expectation for a value of the wrong type", () => {
    const text = [
      '{ "turns": [',
      '  { "content": [',
      '    { "type": "text", "text": "a" },',
      '    { "type": "toolCall", "name": 5 }',
      "] } ] }",
    ].join("\n");
    expect(problems(text)).toEqual(["script.json:4:35: turns[0].content[1].name: expected string, received number"]);
  });

  it("names the allowed keys for an unknown key (a typo)", () => {
    const text = '{"turns": [\n  {"content": [], "stopReasn": "stop"}\n]}';
    expect(problems(text)).toEqual([
      "script.json:2:32: turns[0].stopReasn: unknown key (allowed keys: content, stopReason, errorMessage, delayMs, usage)",
    ]);
  });

  it("points a missing tool name at the tool-call block", () => {
    const text = '{"turns": [{"content": [\n  {"type": "toolCall", "arguments": {}}\n]}]}';
    expect(problems(text)).toEqual(["script.json:2:3: turns[0].content[0].name: missing, expected string"]);
  });

  it("lists the allowed stop reasons", () => {
    const text = '{"turns": [{"content": [], "stopReason": "done"}]}';
    expect(problems(text)).toEqual([
      'script.json:1:42: turns[0].stopReason: expected one of "stop", "toolUse", "length", "error", "aborted", received "done"',
    ]);
  });

  it("lists the allowed block types for an unknown or missing type", () => {
    const text = '{"turns": [{"content": [{"type": "image"}, {"text": "x"}]}]}';
    expect(problems(text)).toEqual([
      'script.json:1:34: turns[0].content[0].type: expected one of "text", "thinking", "toolCall", received "image"',
      'script.json:1:44: turns[0].content[1].type: missing, expected one of "text", "thinking", "toolCall"',
    ]);
  });

  it("reports every problem of the file, in source order", () => {
    const text = [
      '{"promt": "x", "turns": [',
      '  {"content": [{"type": "toolCall", "name": "w", "arguments": [1]}], "delayMs": -5},',
      '  {"content": "hello", "usage": {"input": 1.5}}',
      "]}",
    ].join("\n");
    expect(problems(text)).toEqual([
      "script.json:1:11: promt: unknown key (allowed keys: prompt, turns)",
      "script.json:2:63: turns[0].content[0].arguments: expected object, received array",
      "script.json:2:81: turns[0].delayMs: must be >= 0, received -5",
      "script.json:3:15: turns[1].content: expected array, received string",
      "script.json:3:33: turns[1].usage.output: missing, expected number",
      "script.json:3:43: turns[1].usage.input: expected integer, received number",
    ]);
  });

  it("explains a document that is not an object, and a missing turns list", () => {
    expect(problems("[]")).toEqual(["script.json:1:1: (top level): expected object, received array"]);
    expect(problems('{\n  "prompt": "p"\n}')).toEqual(["script.json:1:1: turns: missing, expected array"]);
  });

  it("lets JSON syntax errors through with their position", () => {
    const error = failure(() => parseScript('{"turns": [\n  {"content": []},\n]}', "script.json"));
    expect(error.code).toBe("GH_JSON_SYNTAX");
    expect(error.message).toBe("script.json:2:18: trailing comma before ']' — expected a value");
  });
});

describe("loadScript", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gatehouse-script-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads and validates a file, ignoring a byte-order mark", async () => {
    const file = join(dir, "ok.json");
    await writeFile(file, '\uFEFF{"turns": [{"content": [{"type": "text", "text": "hi"}]}]}');
    expect(await loadScript(file)).toEqual({ turns: [{ content: [{ type: "text", text: "hi" }] }] });
  });

  it("names the file in validation errors", async () => {
    const file = join(dir, "bad.json");
    await writeFile(file, '{"turns": [{"content": [], "delayMs": "soon"}]}');
    await expect(loadScript(file)).rejects.toMatchObject({
      code: "GH_SCRIPT_INVALID",
      message: `Invalid script ${file} (1 problem):\n  ${file}:1:39: turns[0].delayMs: expected number, received string`,
    });
  });

  it("names the file and the OS reason when the file is missing", async () => {
    const file = join(dir, "missing.json");
    await expect(loadScript(file)).rejects.toMatchObject({
      code: "GH_SCRIPT_INVALID",
      message: `Cannot read script ${file}: no such file or directory (ENOENT)`,
    });
  });

  it("names the OS reason when the path is a directory", async () => {
    await expect(loadScript(dir)).rejects.toMatchObject({
      code: "GH_SCRIPT_INVALID",
      message: `Cannot read script ${dir}: is a directory (EISDIR)`,
    });
  });

  it("refuses a FIFO at once instead of waiting for a writer", async () => {
    const fifo = join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    await expect(loadScript(fifo)).rejects.toMatchObject({
      code: "GH_SCRIPT_INVALID",
      message: `Cannot read script ${fifo}: is not a regular file (ENOTREG)`,
    });
  });

  it("refuses bytes that are not UTF-8, naming the line, rather than reading them as U+FFFD", async () => {
    const file = join(dir, "latin1.json");
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from('{"turns": [\n{"content": [{"type": "text", "text": "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}]}'),
      ]),
    );
    await expect(loadScript(file)).rejects.toMatchObject({
      code: "GH_SCRIPT_INVALID",
      message: `${file}:2: bytes that are not UTF-8 — expected UTF-8 text`,
    });
    const fine = join(dir, "utf8.json");
    await writeFile(fine, '{"turns": [{"content": [{"type": "text", "text": "café \uFFFD"}]}]}');
    expect((await loadScript(fine)).turns[0]?.content).toEqual([{ type: "text", text: "café \uFFFD" }]);
  });
});

describe("nesting depth", () => {
  const turnWith = (args: string) =>
    `{"turns": [{"content": [\n  {"type": "toolCall", "name": "t", "arguments": {"a": ${args}}}]}]}`;

  it("refuses arguments nested past 256 levels at load, with file:line:column", () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const error = failure(() => parseScript(turnWith(deep), "deep.json"));
    expect(error.code).toBe("GH_SCRIPT_INVALID");
    // The document is 6 levels deep at the argument's value: the 251st bracket of it is level 257.
    expect(error.message).toBe(
      `deep.json:2:${'  {"type": "toolCall", "name": "t", "arguments": {"a": '.length + 251}: arrays and objects nested deeper than 256 — expected at most 256 levels`,
    );
  });

  it("accepts nesting up to the limit, and brackets inside strings do not count", () => {
    const script = parseScript(turnWith(`${"[".repeat(250)}"${"[".repeat(1000)}"${"]".repeat(250)}`), "ok.json");
    const block = script.turns[0]?.content[0] as { arguments: { a: unknown } } | undefined;
    let value: unknown = block?.arguments.a;
    let depth = 0;
    while (Array.isArray(value)) {
      value = value[0];
      depth++;
    }
    expect([depth, value]).toEqual([250, "[".repeat(1000)]);
  });
});
