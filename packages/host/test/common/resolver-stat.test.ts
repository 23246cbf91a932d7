import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
/** The built host, as a user's program loads it (vitest's global setup rebuilds it when stale). */
const dist = join(here, "../../dist/index.js");

/**
 * Runs `body` in a fresh node process after loading the host, warming Node's resolver cache with
 * a package the host depends on, and a stat of a FIFO: the state in which Node's resolver stops
 * following symbolic links (see `readyResolver`).
 */
function afterFifoStat(body: string): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "gh-fifo-stat-"));
  const fifo = join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  const script = `
    import { statSync } from "node:fs";
    import { createRequire } from "node:module";
    const host = await import(${JSON.stringify(dist)});
    createRequire(${JSON.stringify(dist)})("zod");
    statSync(${JSON.stringify(fifo)});
    ${body}
    console.log("ok");`;
  // Without vitest's NODE_PATH (pnpm's hoisted store), where the misresolved package would be found anyway.
  const { NODE_PATH: _, ...env } = process.env;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, env, encoding: "utf8" });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("modules the host loads lazily, after it looked at a FIFO", () => {
  it("the stderr logger loads pino (a FIFO log or pipe read no longer crashes the first log line)", () => {
    const run = afterFifoStat(`host.stderrLogger({ level: "error" }).error("after a fifo");`);
    expect(run.stderr).not.toContain("Cannot find module");
    expect(run.stderr).toContain('"msg":"after a fifo"');
    expect(run.stdout.trim()).toBe("ok");
    expect(run.status).toBe(0);
  });

  it("a host built after it loads tapable for its hooks and minimatch for a glob", () => {
    const run = afterFifoStat(`
      const ext = { name: "h", setup(api) { api.on("tool_call", () => undefined); } };
      const h = await host.createHost({
        cwd: process.cwd(),
        env: { GATEHOUSE_HOME: process.cwd() + "/home" },
        extensions: [ext],
        model: host.createScriptedModel({ turns: [
          { content: [{ type: "toolCall", id: "f", name: "find", arguments: { pattern: "*.md" } }] },
          { content: [{ type: "text", text: "done" }] },
        ] }),
      });
      const result = await h.run("go");
      const found = result.messages.find((m) => m.role === "toolResult");
      if (!found || found.isError) throw new Error("find failed: " + JSON.stringify(found));
      await h.close();`);
    expect(run.stderr).not.toContain("Cannot find module");
    expect(run.stdout.trim()).toBe("ok");
    expect(run.status).toBe(0);
  });
});
