import { describe, expect, it } from "vitest";
import { readHookOutput } from "../../src/command-hooks/hook-output.ts";
import { matchesTool } from "../../src/command-hooks/matcher.ts";

const ok = (stdout: string) => ({ exitCode: 0, stdout, stderr: "", timedOut: false });

describe("matchesTool", () => {
  it("follows Claude Code's matcher rules", () => {
    expect(matchesTool(undefined, "Bash")).toBe(true);
    expect(matchesTool("", "Bash")).toBe(true);
    expect(matchesTool("*", "Write")).toBe(true);
    expect(matchesTool("Edit|Write", "Write")).toBe(true);
    expect(matchesTool("Write", "NotebookWrite")).toBe(false);
    expect(matchesTool("Notebook.*", "NotebookEdit")).toBe(true);
    expect(matchesTool("mcp__github__.*", "mcp__github__create_issue")).toBe(true);
    expect(matchesTool("mcp__github__.*", "mcp__gitlab__create_issue")).toBe(false);
  });
});

describe("readHookOutput", () => {
  it("reads Claude Code's decisions", () => {
    const deny = {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
    };
    expect(readHookOutput("PreToolUse", ok(JSON.stringify(deny)))).toEqual({ kind: "block", reason: "no" });
    expect(readHookOutput("PreToolUse", { exitCode: 2, stdout: "", stderr: "not here\n", timedOut: false })).toEqual({
      kind: "block",
      reason: "not here",
    });
    const update = {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } },
    };
    expect(readHookOutput("PreToolUse", ok(JSON.stringify(update)))).toEqual({
      kind: "update",
      input: { command: "ls" },
    });
    expect(readHookOutput("PreToolUse", ok(JSON.stringify({ decision: "block", reason: "old style" })))).toEqual({
      kind: "block",
      reason: "old style",
    });
    const context = { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "formatted" } };
    expect(readHookOutput("PostToolUse", ok(JSON.stringify(context)))).toEqual({
      kind: "result",
      additionalContext: "formatted",
    });
  });

  it("takes plain text and silence as no opinion", () => {
    expect(readHookOutput("PreToolUse", ok(""))).toEqual({ kind: "none" });
    expect(readHookOutput("PostToolUse", ok("Formatted 3 files\n"))).toEqual({ kind: "none" });
  });

  it("fails closed where Claude Code fails open", () => {
    const cases = [
      { exitCode: 1, stdout: "", stderr: "Traceback: KeyError", timedOut: false },
      { exitCode: 127, stdout: "", stderr: "jq: command not found", timedOut: false },
      { exitCode: null, stdout: "", stderr: "", timedOut: true },
      ok("{ not json"),
      ok('{"hookSpecificOutput": []}'),
      ok(JSON.stringify({ hookSpecificOutput: { permissionDecision: "maybe" } })),
      ok(JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse" } })),
      { exitCode: 0, stdout: "", stderr: "", timedOut: false, failure: "it could not start" },
    ];
    for (const run of cases) expect(readHookOutput("PreToolUse", run).kind, JSON.stringify(run)).toBe("failed");
    expect(
      readHookOutput("PreToolUse", ok(JSON.stringify({ hookSpecificOutput: { permissionDecision: "ask" } }))),
    ).toMatchObject({
      kind: "block",
    });
    expect(readHookOutput("PreToolUse", ok(JSON.stringify({ continue: false, stopReason: "halt" })))).toEqual({
      kind: "block",
      reason: "halt",
    });
  });
});
