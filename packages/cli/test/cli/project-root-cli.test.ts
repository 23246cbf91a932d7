import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

// Finding: `gatehouse run` started in a subdirectory of a project took that subdirectory for the
// project. It has no .gatehouse/, so the project's guards were off: a write to `.env` went through,
// the run exited 0, and `gatehouse audit verify` there said there was no log. A command without
// --cwd now works on the project its directory belongs to, as git does.

const BOTH = JSON.stringify({ extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] });
const turns = [
  {
    content: [
      { type: "toolCall", id: "E", name: "write", arguments: { path: ".env", content: "X=1" } },
      { type: "toolCall", id: "N", name: "write", arguments: { path: "notes.txt", content: "ok" } },
    ],
  },
  { content: [{ type: "text", text: "done" }] },
];

describe("a command run from a subdirectory of a project", () => {
  it("runs under the project's guards and audit, with paths relative to the project", async () => {
    const p = makeProject({ ".gatehouse/settings.json": BOTH });
    const sub = join(p.dir, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const run = await runCli(["run", "--script", writeScript(tempDir(), turns), "--no-session"], {
      cwd: sub,
      env: p.env,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("blocked by protected-paths");
    for (const dir of [p.dir, sub]) expect(existsSync(join(dir, ".env"))).toBe(false);
    expect(readFileSync(join(p.dir, "notes.txt"), "utf8")).toBe("ok");
    const verify = await runCli(["audit", "verify"], { cwd: sub, env: p.env });
    expect(verify.stdout).toMatch(/^INTACT: \d+ records in 1 session/);
    expect(verify.code).toBe(0);
    const policy = await runCli(["policy", "check", "--tool", "write", "--args", '{"path":".env","content":"x"}'], {
      cwd: sub,
      env: p.env,
    });
    expect([policy.code, policy.stdout.split("\n")[0]]).toEqual([1, "decision: blocked by protected-paths"]);
  });

  it("never takes the user's Gatehouse home (~/.gatehouse) for a project's folder", async () => {
    const home = tempDir("gh-user-");
    const gatehouseHome = join(home, ".gatehouse");
    mkdirSync(gatehouseHome, { mode: 0o700 });
    const work = join(home, "work");
    mkdirSync(work);
    const run = await runCli(["run", "--script", writeScript(tempDir(), turns), "--no-session"], {
      cwd: work,
      env: { HOME: home, GATEHOUSE_HOME: "" },
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(work, "notes.txt"), "utf8")).toBe("ok");
    expect(existsSync(join(home, "notes.txt"))).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)("ignores a .gatehouse/ above it that another user owns", async () => {
    const shared = tempDir("gh-shared-");
    mkdirSync(join(shared, ".gatehouse"));
    writeFileSync(join(shared, ".gatehouse", "settings.json"), JSON.stringify({ toolExecution: "sequential" }));
    chownSync(join(shared, ".gatehouse"), 65534, 65534);
    const mine = join(shared, "mine");
    mkdirSync(mine);
    const run = await runCli(["run", "--script", writeScript(tempDir(), turns), "--no-session"], {
      cwd: mine,
      env: { GATEHOUSE_HOME: tempDir("gh-home-") },
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(mine, "notes.txt"), "utf8")).toBe("ok");
  });

  it("a Claude Code hook without CLAUDE_PROJECT_DIR in a subdirectory decides by the project's guards", async () => {
    const p = makeProject({ ".gatehouse/settings.json": BOTH });
    const sub = join(p.dir, "pkg");
    mkdirSync(sub);
    const payload = {
      session_id: "s",
      transcript_path: join(p.dir, "t.jsonl"),
      cwd: sub,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(sub, ".env"), content: "x" },
      tool_use_id: "toolu_1",
    };
    const run = await runCli(["hook", "claude-code"], {
      stdin: JSON.stringify(payload),
      env: { ...p.env, CLAUDE_PROJECT_DIR: "" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"permissionDecision":"deny"');
  });
});
