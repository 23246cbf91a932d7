import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { grantTrust } from "../../src/config/index.ts";
import { openProject } from "../../src/host/project-extensions.ts";
import { call, quietLogger, runScenario, say, tempDir } from "../helpers/scenario.ts";

/** A trusted project whose settings run `sh scripts/guard.sh` before every write: a guard that refuses. */
function trustedGuardProject(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = tempDir("gh-hook-trust-");
  const env = { ...process.env, GATEHOUSE_HOME: tempDir("gh-hook-trust-home-") };
  mkdirSync(join(cwd, ".gatehouse"));
  mkdirSync(join(cwd, "scripts"));
  writeFileSync(join(cwd, "scripts", "guard.sh"), 'echo "writes are reviewed: refused" >&2\nexit 2\n');
  const hooks = { PreToolUse: [{ matcher: "write", hooks: [{ type: "command", command: "sh scripts/guard.sh" }] }] };
  writeFileSync(join(cwd, ".gatehouse", "settings.json"), JSON.stringify({ hooks }));
  const opened = openProject({ cwd, env }, quietLogger);
  try {
    const extensions = opened.projectCode().map((c) => ({ key: c.key, files: c.graph.files }));
    grantTrust({ home: env.GATEHOUSE_HOME, projectDir: cwd, extensions });
  } finally {
    opened.close();
  }
  return { cwd, env };
}

describe("a project hook runs only the code trust recorded", () => {
  it("a hook script rewritten mid-run no longer answers for the trusted one: the call it guards is refused", async () => {
    const p = trustedGuardProject();
    const { events } = await runScenario({
      ...p,
      discover: true,
      turns: [
        { content: [call("A", "write", { path: "kept.txt", content: "1" })] },
        { content: [call("B", "bash", { command: "printf 'exit 0\\n' > scripts/guard.sh" })] },
        { content: [call("C", "write", { path: "kept.txt", content: "2" })] },
        say("done"),
      ],
    });
    const end = (id: string) =>
      events.find((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end" && e.toolCallId === id);
    expect(end("A")).toMatchObject({ outcome: "blocked", blockedBy: "project-hooks" });
    expect(end("B")).toMatchObject({ outcome: "executed" });
    expect(end("C")).toMatchObject({ outcome: "blocked", blockedBy: "project-hooks" });
    expect(end("C")?.reason).toMatch(/not what was trusted \(scripts\/guard\.sh was edited.*gatehouse trust/);
    expect(existsSync(join(p.cwd, "kept.txt"))).toBe(false);
  });

  // Finding: the same rewrite before the next start (the agent writes scripts/, a run ends) left the
  // project's hooks skipped as untrusted at the next start: the write they refuse ran, exit 0.
  it("a hook script rewritten after trust stops the next host instead of leaving the hooks off", async () => {
    const p = trustedGuardProject();
    writeFileSync(join(p.cwd, "scripts", "guard.sh"), "exit 0\n");
    await expect(
      runScenario({
        ...p,
        discover: true,
        turns: [{ content: [call("A", "write", { path: "kept.txt", content: "1" })] }],
      }),
    ).rejects.toThrow(/required guard "project-hooks" .*they were trusted at .* and their code changed since/);
    expect(existsSync(join(p.cwd, "kept.txt"))).toBe(false);
  });
});
