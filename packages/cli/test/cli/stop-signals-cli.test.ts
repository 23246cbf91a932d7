import { existsSync, mkdirSync, mkdtempSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, startCli, writeScript } from "./cli-helpers.ts";

/** A project with the audit on, whose first batch writes a file and then waits in bash. */
function project() {
  const dir = tempDir();
  mkdirSync(join(dir, ".gatehouse"));
  writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify({ extensions: ["@gatehouse/tool-audit"] }));
  const script = writeScript(dir, [
    {
      content: [
        { type: "toolCall", id: "W", name: "write", arguments: { path: "w.txt", content: "w" } },
        { type: "toolCall", id: "B", name: "bash", arguments: { command: "touch started && sleep 30" } },
      ],
    },
    { content: [{ type: "text", text: "never reached" }] },
  ]);
  return { dir, script, home: mkdtempSync(join(tmpdir(), "gh-signal-home-")) };
}

function started(dir: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (!existsSync(join(dir, "started"))) return;
      watcher.close();
      resolve();
    });
  });
}

describe("gatehouse run stopped by a signal other than Ctrl-C", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)(
    "%s aborts the run like Ctrl-C: exit %i, every call that ran is audited, audit and session close",
    async (signal, code) => {
      const { dir, script, home } = project();
      const env = { GATEHOUSE_HOME: home };
      const running = started(dir);
      const cli = startCli(["run", "go", "--cwd", dir, "--script", script], { env });
      await running;
      cli.child.kill(signal);
      const run = await cli.exited;
      // Node's default for these signals killed the process: the write had run but its records,
      // and the run's end, never reached the audit log (verify: UNSEALED TAIL, exit 3).
      expect([run.code, run.signal]).toEqual([code, null]);
      expect(existsSync(join(dir, "w.txt"))).toBe(true);
      expect(run.stdout).toMatch(/^interrupted · 1 turn · 2 tool calls: 1 ok, 1 stopped · /m);
      const verify = await runCli(["audit", "verify", "--cwd", dir], { env });
      expect([verify.code, verify.stdout]).toEqual([0, expect.stringContaining("INTACT")]);
      const tail = await runCli(["audit", "tail", "--json", "--cwd", dir], { env });
      const ends = tail.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { kind: string; toolCallId?: string; outcome?: string })
        .filter((r) => r.kind === "call_end")
        .map((r) => `${r.toolCallId}:${r.outcome}`);
      expect(ends.sort()).toEqual(["B:aborted", "W:executed"]);
      const check = await runCli(["session", "check", "--cwd", dir], { env });
      expect([check.code, check.stdout]).toEqual([0, expect.stringContaining("0 errors")]);
    },
  );

  it("a tool that ignores its abort signal cannot keep a run stopped by SIGTERM alive: it quits after a grace period", {
    timeout: 30_000,
  }, async () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".gatehouse", "extensions"), { recursive: true });
    writeFileSync(
      join(dir, ".gatehouse", "extensions", "stubborn.ts"),
      `import { writeFileSync } from "node:fs";
import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "stubborn", setup(api) {
  api.registerTool(defineTool({ name: "stubborn", description: "ignores abort", parameters: z.object({}), effects: () => [],
    async execute(_args, ctx) {
      writeFileSync(ctx.cwd + "/started", "");
      await new Promise((r) => setTimeout(r, 60_000));
      return { content: [{ type: "text", text: "finally" }] };
    } }));
} });
`,
    );
    const script = writeScript(dir, [{ content: [{ type: "toolCall", id: "S", name: "stubborn", arguments: {} }] }]);
    const running = started(dir);
    const cli = startCli(["run", "go", "--cwd", dir, "--script", script, "--trust", "--no-session"]);
    await running;
    const sent = performance.now();
    cli.child.kill("SIGTERM");
    const run = await cli.exited;
    expect([run.code, run.signal]).toEqual([143, null]);
    expect(performance.now() - sent).toBeLessThan(15_000);
    expect(run.stdout).toContain("interrupted");
  });
});
