import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { events, runCli, writeScript } from "./cli-helpers.ts";

// A session file is history: `--continue` replays it to the model. Kept inside the workspace with
// `--session`, it was open to the model's write and edit, so a later resumed run got forged history.

describe("a --session file inside the workspace", () => {
  it("can be read by the model's tools but not rewritten, with protected-paths on", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/protected-paths"] }),
    });
    const file = join(p.dir, "sess.jsonl");
    const calls = [
      { type: "toolCall", id: "R", name: "read", arguments: { path: "sess.jsonl" } },
      { type: "toolCall", id: "W", name: "write", arguments: { path: "sess.jsonl", content: "{}\n" } },
      {
        type: "toolCall",
        id: "E",
        name: "edit",
        arguments: { path: "./sess.jsonl", oldText: '"type"', newText: '"typo"' },
      },
    ];
    const script = writeScript(tempDir(), [{ content: calls }, { content: [{ type: "text", text: "done" }] }]);
    const run = await runCli(["run", "go", "--cwd", p.dir, "--script", script, "--session", file, "--json"], {
      env: p.env,
    });
    expect(run.code).toBe(0);
    const ends = events(run.stdout).filter((e) => e.type === "tool_execution_end");
    const outcome = (id: string) => ends.find((e) => e.toolCallId === id)?.outcome;
    expect([outcome("R"), outcome("W"), outcome("E")]).toEqual(["executed", "blocked", "blocked"]);
    const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0] ?? "");
    expect(header.type).toBe("session");
    const check = await runCli(["session", "check", file], { env: p.env });
    expect(check.code).toBe(0);
  });
});
