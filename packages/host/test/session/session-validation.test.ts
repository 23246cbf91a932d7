import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GatehouseError } from "../../src/common/errors.ts";
import { checkSession, Session } from "../../src/session/index.ts";
import { tempDir } from "../helpers/scenario.ts";

const HEADER = { type: "session", version: 1, id: "h", cwd: "/p", created: "2025-01-01T00:00:00.000Z" };
const T = "2025-01-01T00:00:00.000Z";
const prompt = {
  id: "u1",
  parentId: null,
  timestamp: T,
  type: "message",
  message: { role: "user", content: "go", timestamp: 1 },
};
const call = (block: Record<string, unknown>) => ({
  id: "a1",
  parentId: "u1",
  timestamp: T,
  type: "message",
  message: { role: "assistant", content: [block], stopReason: "toolUse", timestamp: 2 },
});
const goodCall = { type: "toolCall", id: "A", name: "read", arguments: { path: "x" } };
const result = (over: Record<string, unknown>) => ({
  id: "r1",
  parentId: "a1",
  timestamp: T,
  type: "message",
  message: {
    role: "toolResult",
    toolCallId: "A",
    toolName: "read",
    content: [],
    isError: false,
    timestamp: 3,
    ...over,
  },
});

function write(lines: unknown[]): string {
  const file = join(tempDir("gh-session-shape-"), "s.jsonl");
  writeFileSync(file, `${[HEADER, ...lines].map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

function openError(file: string): GatehouseError {
  try {
    Session.open(file, { readOnly: true });
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    return error as GatehouseError;
  }
  throw new Error(`expected ${file} to be refused`);
}

/** Each malformed entry, the line it is on, and words the message must contain. */
const MALFORMED: [string, unknown[], number, string][] = [
  ["a message that is a string", [{ ...prompt, message: "str" }], 2, "message must be an object"],
  ["no message at all", [{ id: "u1", parentId: null, timestamp: T, type: "message" }], 2, "message must be an object"],
  ["a null content", [{ ...prompt, message: { role: "user", content: null } }], 2, "message.content must be"],
  [
    "an assistant content that is a string",
    [prompt, { ...call(goodCall), message: { role: "assistant", content: "str" } }],
    3,
    "message.content must be",
  ],
  [
    "a tool result with null content",
    [prompt, call(goodCall), result({ content: null })],
    4,
    "message.content must be",
  ],
  ["a tool result without toolCallId", [prompt, call(goodCall), result({ toolCallId: 5 })], 4, "message.toolCallId"],
  ["an unknown role", [{ ...prompt, message: { role: "martian", content: "x" } }], 2, 'message.role must be "user"'],
  [
    "string tool arguments",
    [prompt, call({ ...goodCall, arguments: "{}" })],
    3,
    "message.content[0].arguments must be an object",
  ],
  [
    "a tool call without a name",
    [prompt, call({ type: "toolCall", id: "A", arguments: {} })],
    3,
    "message.content[0].name",
  ],
  [
    "an image whose data is a number",
    [{ ...prompt, message: { role: "user", content: [{ type: "image", data: 5, mimeType: "image/png" }] } }],
    2,
    "message.content[0].data",
  ],
  [
    "an unknown block type",
    [{ ...prompt, message: { role: "user", content: [{ type: "video" }] } }],
    2,
    "message.content[0].type",
  ],
  [
    "a compaction without summary",
    [prompt, { id: "c1", parentId: "u1", timestamp: T, type: "compaction", firstKeptEntryId: "u1" }],
    3,
    "summary must be a string",
  ],
  [
    "a branch to nowhere",
    [prompt, { id: "b1", parentId: "u1", timestamp: T, type: "branch", targetId: "zz" }],
    3,
    'targetId "zz" is not an earlier entry',
  ],
  [
    "a label without text",
    [prompt, { id: "l1", parentId: "u1", timestamp: T, type: "label", targetId: "u1" }],
    3,
    "label must be a string",
  ],
  [
    "a model change without a model",
    [prompt, { id: "m1", parentId: "u1", timestamp: T, type: "model_change" }],
    3,
    "model must be a string",
  ],
  ["a numeric parent", [{ ...prompt, parentId: 7 }], 2, "parentId must be null or a string"],
  ["a duplicate id", [prompt, { ...prompt, parentId: "u1" }], 3, 'duplicate id "u1" (first on line 2)'],
  [
    "a parent that is missing",
    [prompt, { ...call(goodCall), parentId: "deadbeef" }],
    3,
    'parent "deadbeef" does not precede',
  ],
  ["a parent loop", [{ ...prompt, parentId: "a1" }, call(goodCall)], 2, 'parent "a1" does not precede'],
  ["a self parent", [prompt, { ...call(goodCall), id: "a1", parentId: "a1" }], 3, 'parent "a1" does not precede'],
];

describe("one check of every entry's shape, for reading and for session check", () => {
  it.each(MALFORMED)(
    "%s is refused on open and an error of session check, at its line",
    (_name, lines, line, words) => {
      const file = write(lines);
      const error = openError(file);
      expect(error.code).toBe("GH_SESSION");
      expect(error.message).toContain(`${file}:${line}: `);
      expect(error.message).toContain(words);
      const report = checkSession(file);
      expect(report.ok).toBe(false);
      expect(report.problems).toContainEqual({ severity: "error", line, message: expect.stringContaining(words) });
      expect(report.problems.every((p) => p.line !== undefined)).toBe(true);
    },
  );

  it("a well-formed session of every entry type opens and checks clean", () => {
    const file = write([
      prompt,
      call(goodCall),
      result({
        content: [
          { type: "text", text: "ok" },
          { type: "image", data: "AA==", mimeType: "image/png" },
        ],
      }),
      { id: "c1", parentId: "r1", timestamp: T, type: "custom", extension: "x", data: null },
      { id: "l1", parentId: "c1", timestamp: T, type: "label", targetId: "u1", label: "start" },
      { id: "k1", parentId: "c1", timestamp: T, type: "compaction", summary: "s", firstKeptEntryId: "u1" },
      { id: "z1", parentId: "k1", timestamp: T, type: "from_the_future", anything: [1] },
    ]);
    expect(Session.open(file, { readOnly: true }).context().messages).toHaveLength(4);
    const report = checkSession(file);
    expect(report.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(report.entries).toBe(7);
  });

  it("a line nested deeper than any entry Gatehouse writes is refused before anything recursive reads it", () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const file = write([prompt]);
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}{"id":"a1","parentId":"u1","type":"custom","extension":"x","timestamp":"${T}","data":${deep}}\n`,
    );
    expect(openError(file).message).toContain(`${file}:3: corrupt line (column`);
    expect(checkSession(file).problems).toContainEqual({
      severity: "error",
      line: 3,
      message: expect.stringContaining("nested deeper than 1024"),
    });
  });

  it("a corrupt line is described by code point, never with its raw control characters", () => {
    const file = write([prompt]);
    writeFileSync(file, `${readFileSync(file, "utf8")}\u001b[2J\u0007\u0000\n`);
    const message = openError(file).message;
    expect(message).toContain(`${file}:3: corrupt line (column 1: unexpected character U+001B`);
    const [problem] = checkSession(file).problems;
    expect(problem?.message).toContain("U+001B");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that there are none
    expect(`${message}${problem?.message}`).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe("session check of what is not a session", () => {
  it("an empty or BOM-only file is an error at line 1, like reading it", () => {
    for (const text of ["", "\ufeff", "\n"]) {
      const file = join(tempDir("gh-session-empty-"), "s.jsonl");
      writeFileSync(file, text);
      expect(openError(file).message).toContain(`${file}:1: empty session file (no header line)`);
      const report = checkSession(file);
      expect(report.ok).toBe(false);
      expect(report.problems).toContainEqual({
        severity: "error",
        line: 1,
        message: "empty session file (no header line)",
      });
    }
  });

  it("a directory or a FIFO is refused at once with GH_SESSION, never read or waited on", () => {
    const dir = tempDir("gh-session-odd-");
    const folder = join(dir, "d.jsonl");
    mkdirSync(folder);
    const fifo = join(dir, "f.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const [file, what] of [
      [folder, "a directory"],
      [fifo, "a named pipe (FIFO)"],
    ] as const) {
      expect(() => checkSession(file)).toThrow(
        expect.objectContaining({ code: "GH_SESSION", message: expect.stringContaining(`it is ${what}`) }),
      );
    }
  });
});
