import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NO_RESULT_TEXT } from "@gatehouse/host";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CLI_ARGV, runCli, writeScript } from "./cli-helpers.ts";

const entries = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l));

describe("resume after a SIGKILL mid-batch", () => {
  it("orphaned calls get synthesized results on --continue; nothing recorded before the kill is lost", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const script = writeScript(dir, [
      {
        content: [
          { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "a" } },
          { type: "toolCall", id: "B", name: "bash", arguments: { command: "sleep 30" } },
        ],
      },
      { content: [{ type: "text", text: "never reached" }] },
    ]);
    const child = spawn(process.execPath, [
      ...CLI_ARGV,
      "run",
      "go",
      "--cwd",
      dir,
      "--script",
      script,
      "--json",
      "--sequential",
      "--session",
      file,
    ]);
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        // Sequential: A's result is recorded before B starts; kill while B runs.
        if (chunk.toString().includes('"type":"tool_execution_start","toolCallId":"B"')) {
          child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.on("close", resolve));

    const check = await runCli(["session", "check", file]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("tool call B (bash) has no recorded result");
    expect(entries(file).map((e) => e.message?.role ?? e.type)).toEqual(["user", "assistant", "toolResult"]);

    const resume = writeScript(dir, [{ content: [{ type: "text", text: "resumed" }] }], "resume.json");
    const run = await runCli([
      "run",
      "carry on",
      "--cwd",
      dir,
      "--script",
      resume,
      "--json",
      "--session",
      file,
      "--continue",
    ]);
    expect(run.code).toBe(0);
    const after = entries(file);
    expect(after.map((e) => e.message?.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "toolResult",
      "user",
      "assistant",
    ]);
    expect(after[2].message).toMatchObject({ toolCallId: "A", isError: false });
    expect(after[3]).toMatchObject({
      synthetic: true,
      message: { toolCallId: "B", isError: true, content: [{ text: NO_RESULT_TEXT }] },
    });
    const recheck = await runCli(["session", "check", file]);
    expect(recheck.stdout).toContain("0 errors, 0 warnings");
  });

  it("a torn last line is reported on resume and repaired; a corrupt middle line stops the run with its line", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const script = writeScript(dir, [{ content: [{ type: "text", text: "hi" }] }]);
    expect((await runCli(["run", "one", "--cwd", dir, "--script", script, "--session", file, "--json"])).code).toBe(0);
    const { appendFileSync, writeFileSync } = await import("node:fs");
    appendFileSync(file, '{"type":"message","id":"x","par');
    const resumed = await runCli([
      "run",
      "two",
      "--cwd",
      dir,
      "--script",
      script,
      "--session",
      file,
      "--continue",
      "--json",
    ]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("ignored an incomplete last line");
    expect(entries(file).map((e) => e.message?.content ?? e.message?.role)).toEqual(
      ["one", "assistant", "two", "assistant"].map((x) => (x === "assistant" ? expect.anything() : x)),
    );
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(2, 0, "garbage");
    writeFileSync(file, lines.join("\n"));
    const broken = await runCli(["run", "three", "--cwd", dir, "--script", script, "--session", file, "--continue"]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${file}:3: corrupt line`);
  });
});
