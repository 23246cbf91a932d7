import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GatehouseEvent, ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";

const SCRIPTS = join(import.meta.dirname, "scripts");

type Groups = Record<string, { matcher?: string; hooks: { type: "command"; command: string; timeout?: number }[] }[]>;

/** A project whose settings enable protected-paths (so hook commands run in its sandbox) and these hooks. */
function project(hooks: Groups, extra: object = {}): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = tempDir("gh-hooks-");
  mkdirSync(join(cwd, ".gatehouse"));
  cpSync(SCRIPTS, join(cwd, ".gatehouse", "hooks"), { recursive: true });
  const settings = { extensions: ["@gatehouse/protected-paths"], hooks, ...extra };
  writeFileSync(join(cwd, ".gatehouse", "settings.json"), JSON.stringify(settings));
  return { cwd, env: { ...process.env, GATEHOUSE_HOME: tempDir("gh-hooks-home-") } };
}

const hook = (command: string, timeout?: number) => ({
  type: "command" as const,
  command,
  ...(timeout ? { timeout } : {}),
});

function ends(events: GatehouseEvent[]): Map<string, ToolExecutionEndEvent> {
  return new Map(
    events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end").map((e) => [e.toolCallId, e]),
  );
}

function text(end: ToolExecutionEndEvent | undefined): string {
  return (end?.result.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

async function run(p: { cwd: string; env: NodeJS.ProcessEnv }, calls: ReturnType<typeof call>[], trust = true) {
  const scenario = await runScenario({
    cwd: p.cwd,
    env: p.env,
    discover: true,
    trust,
    turns: [{ content: calls }, say("done")],
  });
  return { ...scenario, ends: ends(scenario.events) };
}

describe("command hooks written for Claude Code, run unchanged by Gatehouse", () => {
  it("a bash validator (jq, exit 2) blocks what it rejects, in the enforce stage, naming the hook", async () => {
    const p = project({ PreToolUse: [{ matcher: "Bash", hooks: [hook("bash .gatehouse/hooks/validate-bash.sh")] }] });
    const { ends } = await run(p, [
      call("A", "bash", { command: "rm -rf build" }),
      call("B", "bash", { command: "echo fine" }),
    ]);
    expect(ends.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "project-hooks" });
    expect(ends.get("A")?.reason).toMatch(
      /hook "bash \.gatehouse\/hooks\/validate-bash\.sh" \(.*settings\.json, hooks\.PreToolUse\[0\]\) denied the call: Blocked: recursive force delete/,
    );
    expect(ends.get("B")).toMatchObject({ outcome: "executed" });
    expect(text(ends.get("B"))).toContain("fine");
  });

  it("a Python validator answering JSON deny blocks; other commands run", async () => {
    const p = project({ PreToolUse: [{ matcher: "Bash", hooks: [hook("python3 .gatehouse/hooks/protect-main.py")] }] });
    const { ends } = await run(p, [
      call("A", "bash", { command: "git push origin main" }),
      call("B", "bash", { command: "echo branch" }),
    ]);
    expect(ends.get("A")?.reason).toMatch(/Pushing to main is not allowed/);
    expect(ends.get("B")).toMatchObject({ outcome: "executed" });
  });

  it("a Python secrets scanner sees Write as Claude Code shows it (file_path, content) and stops the secret", async () => {
    const p = project({
      PreToolUse: [{ matcher: "Write|Edit", hooks: [hook("python3 .gatehouse/hooks/scan-secrets.py")] }],
    });
    const { ends } = await run(p, [
      call("A", "write", { path: "config.txt", content: "key = AKIAIOSFODNN7EXAMPLE" }),
      call("B", "write", { path: "notes.txt", content: "nothing secret" }),
    ]);
    expect(ends.get("A")?.reason).toMatch(new RegExp(`AWS access key into ${join(p.cwd, "config.txt")}`));
    expect(() => readFileSync(join(p.cwd, "config.txt"))).toThrow();
    expect(readFileSync(join(p.cwd, "notes.txt"), "utf8")).toBe("nothing secret");
  });

  it("a Node formatter on PostToolUse rewrites the written file and its additionalContext reaches the result", async () => {
    const p = project({
      PostToolUse: [{ matcher: "Write|Edit", hooks: [hook("node .gatehouse/hooks/format-on-write.mjs")] }],
    });
    const { ends } = await run(p, [call("A", "write", { path: "data.json", content: '{"a":1,"b":[1,2]}' })]);
    expect(readFileSync(join(p.cwd, "data.json"), "utf8")).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}\n');
    expect(text(ends.get("A"))).toContain(`Formatted ${join(p.cwd, "data.json")} (2-space JSON).`);
    expect(ends.get("A")?.isError).toBe(false);
  });

  it("a Node rewriter's updatedInput becomes the input that runs (re-validated by the host)", async () => {
    const p = project({ PreToolUse: [{ matcher: "Bash", hooks: [hook("node .gatehouse/hooks/add-timeout.mjs")] }] });
    const { ends } = await run(p, [call("A", "bash", { command: "npm test --silent" })]);
    expect(ends.get("A")?.args).toEqual({ command: "timeout 60 npm test --silent" });
  });

  it("a bash output scanner's block decision after the call is told to the model with the result", async () => {
    const p = project({ PostToolUse: [{ matcher: "Bash", hooks: [hook("bash .gatehouse/hooks/redact-output.sh")] }] });
    const { ends } = await run(p, [call("A", "bash", { command: "echo AKIAIOSFODNN7EXAMPLE" })]);
    expect(text(ends.get("A"))).toMatch(/contains an AWS access key; do not repeat or store it/);
  });
});

describe("command hooks fail closed", () => {
  it("a hook that crashes, times out or answers unreadable JSON blocks the call and is named", async () => {
    const p = project(
      {
        PreToolUse: [
          { matcher: "write", hooks: [hook("python3 -c 'import sys; sys.exit(1)'")] },
          { matcher: "read", hooks: [hook("sleep 5", 1)] },
          { matcher: "ls", hooks: [hook("echo '{ not json'")] },
          { matcher: "find", hooks: [hook('echo \'{"hookSpecificOutput":{"permissionDecision":"ask"}}\'')] },
        ],
      },
      { hookTimeoutMs: 10_000 },
    );
    const { ends } = await run(p, [
      call("A", "write", { path: "x.txt", content: "x" }),
      call("B", "read", { path: "x.txt" }),
      call("C", "ls", {}),
      call("D", "find", { pattern: "*" }),
    ]);
    expect(ends.get("A")?.reason).toMatch(/hook "python3 -c .*" .* failed \(exited with 1\)/);
    expect(ends.get("B")?.reason).toMatch(/hook "sleep 5" .* failed \(timed out\)/);
    expect(ends.get("C")?.reason).toMatch(/failed \(printed JSON that cannot be read/);
    expect(ends.get("D")?.reason).toMatch(/asks for the user's confirmation/);
    for (const id of ["A", "B", "C", "D"]) expect(ends.get(id)?.outcome, id).toBe("blocked");
  });

  it("a PostToolUse hook that fails withholds the result", async () => {
    const p = project({ PostToolUse: [{ hooks: [hook("exit 3")] }] });
    const { ends } = await run(p, [call("A", "bash", { command: "echo secret-output" })]);
    expect(ends.get("A")?.isError).toBe(true);
    expect(text(ends.get("A"))).toMatch(/failed \(exited with 3\); the result is withheld/);
    expect(text(ends.get("A"))).not.toContain("secret-output");
  });

  it("a hook command runs under the bash sandbox's rules: what a bash call may not do, it may not either", async () => {
    const p = project({ PreToolUse: [{ matcher: "write", hooks: [hook("echo pwned > .env")] }] });
    const { ends } = await run(p, [call("A", "write", { path: "x.txt", content: "x" })]);
    expect(ends.get("A")?.reason).toMatch(/failed \(its command is refused as a bash call would be: .*\.env/);
    expect(() => readFileSync(join(p.cwd, ".env"))).toThrow();
  });

  it("project hooks are project code: without trust they do not run, and the extension says why", async () => {
    const p = project({ PreToolUse: [{ matcher: "Bash", hooks: [hook("bash .gatehouse/hooks/validate-bash.sh")] }] });
    const { host } = await run(p, [call("A", "bash", { command: "echo hi" })], false);
    const record = host.extensions().find((r) => r.name === "project-hooks");
    expect(record?.status).toBe("skipped");
    expect(record?.errors.join(" ")).toMatch(/not trusted.*gatehouse trust/);
  });

  it("the user's own hooks run without project trust, before none of the project's", async () => {
    const p = project({});
    const home = p.env.GATEHOUSE_HOME as string;
    const user = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(`bash ${join(SCRIPTS, "validate-bash.sh")}`)] }] },
    };
    writeFileSync(join(home, "settings.json"), JSON.stringify(user));
    const { ends } = await run(p, [call("A", "bash", { command: "git push --force" })], false);
    expect(ends.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "hooks" });
  });
});
