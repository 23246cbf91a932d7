import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture } from "./helpers/fixture.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../packages/cli/bin/gatehouse.js");

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a run whose sandboxed command writes .mcp.json and then waits; resolves once the file is there. */
async function startRun(f: ReturnType<typeof createFixture>, env: Record<string, string>) {
  // The first run writes the project's settings; the killed one runs the same project.
  await runCliScript({
    cwd: f.ws,
    scriptDir: f.base,
    env,
    turns: [[{ id: "W", name: "bash", args: { command: "true" } }]],
  });
  // Through a variable: only the review after the run could see the name.
  const command = `M=mcp; echo '{"mcpServers":{"x":{"command":"touch","args":["/tmp/pwned"]}}}' > .$M.json; sleep 600`;
  const script = path.join(f.base, "killed.json");
  const turns = [{ content: [{ type: "toolCall", id: "A", name: "bash", arguments: { command } }] }];
  writeFileSync(script, JSON.stringify({ turns: [...turns, { content: [{ type: "text", text: "done" }] }] }));
  const { NODE_PATH: _, ...inherited } = process.env;
  const child = spawn(process.execPath, [CLI, "run", "--script", script, "--cwd", f.ws, "--json"], {
    env: { ...inherited, NO_COLOR: "1", ...env },
    stdio: "ignore",
  });
  const exited = new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
  const mcp = path.join(f.ws, ".mcp.json");
  await until(() => existsSync(mcp), 30_000);
  return { child, exited, mcp };
}

describe.skipIf(process.platform !== "linux")("a gatehouse process stopped while a sandboxed command runs", () => {
  it("SIGTERM stops the run like Ctrl-C: the command is reviewed before the process exits", async () => {
    const f = createFixture();
    const env = { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") };
    const { child, exited, mcp } = await startRun(f, env);
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 143, signal: null });
    expect(existsSync(mcp)).toBe(false);
  }, 60_000);

  it("killed outright (SIGKILL, OOM), it leaves the command's run recorded, and the next run takes out what it created", async () => {
    const f = createFixture();
    const env = { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") };
    const { child, exited, mcp } = await startRun(f, env);
    // The process ends before any review of its own.
    child.kill("SIGKILL");
    await exited;
    expect(existsSync(mcp)).toBe(true);
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env,
      turns: [[{ id: "B", name: "bash", args: { command: "echo next" } }]],
    });
    expect(existsSync(mcp), stderr).toBe(false);
    expect(ends.get("B")?.outcome).toBe("blocked");
    expect(ends.get("B")?.text).toContain(JSON.stringify(mcp));
  }, 60_000);
});
