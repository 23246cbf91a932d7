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

describe.skipIf(process.platform !== "linux")("a gatehouse process killed while a sandboxed command runs", () => {
  it("leaves the command's run recorded, and the next run takes out what it created", async () => {
    const f = createFixture();
    const env = { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") };
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
    const exited = new Promise((r) => child.once("exit", r));
    const mcp = path.join(f.ws, ".mcp.json");
    await until(() => existsSync(mcp), 30_000);
    // SIGTERM (a closed terminal's SIGHUP, a second Ctrl-C alike): the process ends before any review.
    child.kill("SIGTERM");
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
