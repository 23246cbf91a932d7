import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { events, runCli } from "./cli-helpers.ts";

const turns = [
  { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "from stdin" } }] },
  { content: [{ type: "text", text: "done" }] },
];

describe("gatehouse run --script - (the script piped on standard input)", () => {
  it("runs the piped script like a script file: every event on --json, the tool really runs", async () => {
    const dir = await tempDir();
    const run = await runCli(["run", "go", "--script", "-", "--cwd", dir, "--json", "--no-session"], {
      stdin: `\uFEFF${JSON.stringify({ turns })}`,
    });
    expect(run.stderr).not.toContain("Cannot read script");
    expect(run.code).toBe(0);
    const ends = events(run.stdout).filter((e) => e.type === "tool_execution_end");
    expect(ends).toMatchObject([{ toolCallId: "A", outcome: "executed" }]);
  });

  it("a malformed piped script is exit 2 naming <stdin> with line, column and what was expected", async () => {
    const dir = await tempDir();
    const bad = await runCli(["run", "--script", "-", "--cwd", dir, "--no-session"], {
      stdin: '{\n  "turns": [ { "content": "hi" } ]\n}',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("<stdin>:2:27: turns[0].content: expected array, received string");
    const syntax = await runCli(["run", "--script", "-", "--cwd", dir, "--no-session"], { stdin: '{"turns": [' });
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/<stdin>:1:\d+: unexpected end of file/);
    const latin1 = await runCli(["run", "--script", "-", "--cwd", dir, "--no-session"], {
      stdin: Uint8Array.of(0x7b, 0xff, 0x7d),
    });
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toContain("<stdin>: bytes that are not UTF-8");
  });
});
