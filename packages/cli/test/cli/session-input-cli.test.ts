import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

const T = "2025-01-01T00:00:00.000Z";
const HEADER = { type: "session", version: 1, id: "h", cwd: "/p", created: T };
const prompt = {
  id: "u1",
  parentId: null,
  timestamp: T,
  type: "message",
  message: { role: "user", content: "go", timestamp: 1 },
};
const answer = {
  id: "a1",
  parentId: "u1",
  timestamp: T,
  type: "message",
  message: { role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 2 },
};

/** A project with its own Gatehouse home, and a session file written line by line. */
function setup(lines: unknown[], tail = "") {
  const dir = tempDir();
  const env = { GATEHOUSE_HOME: mkdtempSync(join(tmpdir(), "gh-session-input-home-")) };
  const file = join(dir, "s.jsonl");
  writeFileSync(file, `${[HEADER, ...lines].map((l) => JSON.stringify(l)).join("\n")}\n${tail}`);
  const script = writeScript(dir, [{ content: [{ type: "text", text: "answered" }] }]);
  return { dir, env, file, script };
}

/** A CLI run's stderr must be an answer, never a crash. */
function expectNoTrace(stderr: string) {
  expect(stderr).not.toMatch(/TypeError|RangeError|unexpected failure|\n\s+at /);
}

describe("malformed session entries", () => {
  const MALFORMED: [string, unknown, string][] = [
    ["message a string", { ...answer, message: "str" }, "message must be an object"],
    [
      "content null",
      { ...answer, message: { role: "assistant", content: null, stopReason: "stop" } },
      "message.content must be",
    ],
    ["role martian", { ...answer, message: { role: "martian", content: "hi" } }, 'message.role must be "user"'],
    [
      "tool call without a name",
      {
        ...answer,
        message: { role: "assistant", content: [{ type: "toolCall", id: "A", arguments: {} }], stopReason: "toolUse" },
      },
      "message.content[0].name must be a string",
    ],
    [
      "compaction without summary",
      { ...answer, type: "compaction", firstKeptEntryId: "u1" },
      "summary must be a string",
    ],
    ["duplicate id", { ...answer, id: "u1" }, 'duplicate id "u1" (first on line 2)'],
    ["parent missing", { ...answer, parentId: "deadbeef" }, 'parent "deadbeef" does not precede this entry'],
  ];

  it.each(MALFORMED)(
    "%s: show and resume exit 2 at file:3, check lists it, the file is untouched",
    async (_n, bad, words) => {
      const { dir, env, file, script } = setup([prompt, bad]);
      const before = readFileSync(file, "utf8");
      const show = await runCli(["session", "show", file, "--cwd", dir], { env });
      expect(show.code).toBe(2);
      expect(show.stderr).toContain(`${file}:3: ${words}`);
      expectNoTrace(show.stderr);
      const check = await runCli(["session", "check", file, "--cwd", dir], { env });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(`1 error`);
      expect(check.stdout).toContain(`error line 3: ${words}`);
      const resume = await runCli(["run", "--cwd", dir, "--script", script, "--session", file, "-c", "more"], { env });
      expect(resume.code).toBe(2);
      expect(resume.stderr).toContain(`${file}:3: ${words}`);
      expectNoTrace(resume.stderr);
      expect(readFileSync(file, "utf8")).toBe(before);
    },
  );

  it("a well-formed session still shows, checks clean and resumes", async () => {
    const { dir, env, file, script } = setup([prompt, answer]);
    expect((await runCli(["session", "show", file, "--cwd", dir], { env })).code).toBe(0);
    const check = await runCli(["session", "check", file, "--cwd", dir], { env });
    expect([check.code, check.stdout]).toEqual([0, `${file}: 2 entries, 0 errors, 0 warnings\n`]);
    const resume = await runCli(["run", "--cwd", dir, "--script", script, "--session", file, "-c", "more"], { env });
    expect(resume.code).toBe(0);
  });

  it("session check escapes the control characters of a corrupt line", async () => {
    const { dir, env, file } = setup([prompt], "\u001b[2J\u001b]0;pwned\u0007\u0000\n");
    const check = await runCli(["session", "check", file, "--cwd", dir], { env });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("error line 3: corrupt line (column 1: unexpected character U+001B");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that none reach the terminal
    expect(check.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });
});

describe("session paths that are no session", () => {
  it("check of a directory or a FIFO is exit 2 at once, like show; an empty or BOM-only file is an error", async () => {
    const { dir, env } = setup([]);
    const folder = join(dir, "d.jsonl");
    mkdirSync(folder);
    const fifo = join(dir, "f.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const [path, what] of [
      [folder, "it is a directory"],
      [fifo, "it is a named pipe (FIFO)"],
    ] as const) {
      for (const command of ["show", "check"]) {
        const out = await runCli(["session", command, path, "--cwd", dir], { env });
        expect([command, out.code]).toEqual([command, 2]);
        expect(out.stderr).toContain(what);
      }
    }
    for (const text of ["", "\ufeff"]) {
      const empty = join(dir, "e.jsonl");
      writeFileSync(empty, text);
      const check = await runCli(["session", "check", empty, "--cwd", dir], { env });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain("error line 1: empty session file (no header line)");
    }
  });

  it("a path that does not exist, or a link loop, is named as such, not as an unknown session id", async () => {
    const { dir, env } = setup([]);
    symlinkSync("loop.jsonl", join(dir, "loop.jsonl"));
    const missing = await runCli(["session", "show", "ss/nope.jsonl", "--cwd", dir], { env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file or directory");
    expect(missing.stderr).not.toContain("no session");
    const loop = await runCli(["session", "check", "loop.jsonl", "--cwd", dir], { env, cwd: dir });
    expect(loop.code).toBe(2);
    expect(loop.stderr).toContain("ELOOP");
  });
});

describe("scripts refused before any session file is touched", () => {
  it("a script nested past 256 levels, or a FIFO, exits 2 and leaves a torn session file as it was", async () => {
    const { dir, env, file } = setup([prompt, answer], '{"id":"to');
    const before = readFileSync(file, "utf8");
    const deep = join(dir, "deep.json");
    writeFileSync(
      deep,
      `{"turns": [{"content": [{"type": "toolCall", "name": "t", "arguments": {"a": ${"[".repeat(5000)}${"]".repeat(5000)}}}]}]}`,
    );
    const fifo = join(dir, "script-fifo.json");
    execFileSync("mkfifo", [fifo]);
    const deepRun = await runCli(["run", "--cwd", dir, "--script", deep, "--session", file, "-c", "go"], { env });
    expect(deepRun.code).toBe(2);
    expect(deepRun.stderr).toContain(`${deep}:1:`);
    expect(deepRun.stderr).toContain("nested deeper than 256");
    const fifoRun = await runCli(["run", "--cwd", dir, "--script", fifo, "--session", file, "-c", "go"], { env });
    expect(fifoRun.code).toBe(2);
    expect(fifoRun.stderr).toContain("is not a regular file (ENOTREG)");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a script with bytes that are not UTF-8 exits 2 naming file:line", async () => {
    const { dir, env } = setup([]);
    const latin = join(dir, "latin.json");
    writeFileSync(
      latin,
      Buffer.concat([
        Buffer.from('{"turns": [{"content": [{"type": "text", "text": "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}]}]}'),
      ]),
    );
    const out = await runCli(["run", "--cwd", dir, "--script", latin, "--no-session", "go"], { env });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${latin}:1: bytes that are not UTF-8`);
  });
});
