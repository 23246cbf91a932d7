import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { events, runCli, writeScript } from "./cli-helpers.ts";

// Finding: with a project reached through a symbolic link (`--cwd link`, the link in /tmp), every
// sandboxed `bash` call failed: bubblewrap was told to start in the link's path, which does not
// exist in the sandbox (its /tmp is private; the workspace is mounted at its real path), so it
// could not chdir ("tried 3 times ... nothing ran"). The command now starts in the real path.

describe("a project reached through a symbolic link", () => {
  it("runs sandboxed bash in the project, and writes where the link leads", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/protected-paths"] }),
    });
    const link = join(tempDir("gh-link-"), "project-link");
    symlinkSync(p.dir, link);
    const turns = [
      {
        content: [
          { type: "toolCall", id: "B", name: "bash", arguments: { command: "echo hi > out.txt && cat out.txt" } },
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ];
    const run = await runCli(
      ["run", "--cwd", link, "--script", writeScript(tempDir(), turns), "--no-session", "--json"],
      {
        env: p.env,
      },
    );
    expect(run.code).toBe(0);
    const end = events(run.stdout).find((e) => e.type === "tool_execution_end") as unknown as {
      outcome: string;
      result: { content: { text: string }[] };
    };
    expect([end.outcome, end.result.content.map((c) => c.text).join("")]).toEqual(["executed", "hi\n"]);
    expect(readFileSync(join(p.dir, "out.txt"), "utf8")).toBe("hi\n");
  });
});
