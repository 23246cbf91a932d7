import { existsSync, mkdirSync, mkdtempSync, readFileSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compact, tempDir } from "../../../host/test/helpers/scenario.ts";
import { noGuardNotice } from "../../src/guard-notice.ts";
import { events, runCli, startCli, writeScript } from "./cli-helpers.ts";

describe("gatehouse run (child process)", () => {
  it("--json prints every event as one JSON line, in the contract order, and the tools really run", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "in.txt"), "hello\n");
    const script = writeScript(dir, [
      {
        content: [
          { type: "toolCall", id: "A", name: "bash", arguments: { command: "sleep 0.3; cat in.txt" } },
          { type: "toolCall", id: "B", name: "write", arguments: { path: "out/b.txt", content: "b" } },
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const run = await runCli(["run", "go", "--cwd", dir, "--script", script, "--json"]);
    expect(run.stderr).toBe(noGuardNotice([], dir));
    expect(run.code).toBe(0);
    const evs = events(run.stdout);
    const seq = evs.map((e) => compact(e as never)).filter(Boolean);
    expect(seq).toEqual([
      "agent_start",
      "turn_start",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
      "message_end(assistant)",
      "tool_execution_start(A)",
      "tool_execution_start(B)",
      "tool_execution_end(B)",
      "tool_execution_end(A)",
      "message_start(toolResult:A)",
      "message_end(toolResult:A)",
      "message_start(toolResult:B)",
      "message_end(toolResult:B)",
      "turn_end([A,B])",
      "turn_start",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end([])",
      "agent_end(5)",
    ]);
    expect(evs.some((e) => e.type === "message_update")).toBe(true);
    expect(readFileSync(join(dir, "out/b.txt"), "utf8")).toBe("b");
    const endA = evs.find((e) => e.type === "tool_execution_end" && e.toolCallId === "A");
    expect(endA).toMatchObject({
      outcome: "executed",
      isError: false,
      toolName: "bash",
      args: { command: "sleep 0.3; cat in.txt" },
    });
    expect(JSON.stringify(endA)).toContain("hello");
  });

  it("the user prompt comes from the positional argument", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const run = await runCli(["run", "please", "be", "brief", "--cwd", dir, "--script", script, "--json"]);
    const user = events(run.stdout).find((e) => e.type === "message_end");
    expect(user).toMatchObject({ message: { role: "user", content: "please be brief" } });
  });

  it("a malformed script is exit 2 with file, line, column and what was expected; nothing runs", async () => {
    const dir = tempDir();
    const file = join(dir, "bad.json");
    writeFileSync(file, '{ "turns": [\n  { "content": [ { "type": "toolCall", "name": 5 } ] }\n] }\n');
    const run = await runCli(["run", "--cwd", dir, "--script", file, "--json"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`${file}:2:`);
    expect(run.stderr).toContain("turns[0].content[0].name: expected string, received number");
  });

  it("a script with a JSON syntax error names the position", async () => {
    const dir = tempDir();
    const file = join(dir, "broken.json");
    writeFileSync(file, '{ "turns": [ { "content": [], } ] }');
    const run = await runCli(["run", "--cwd", dir, "--script", file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:\\d+: `));
  });

  it("usage errors are exit 2 and say what is wrong", async () => {
    const dir = tempDir();
    const noScript = await runCli(["run", "--cwd", dir]);
    expect(noScript.code).toBe(2);
    expect(noScript.stderr).toContain("a model is needed: --script FILE");
    const unknownFlag = await runCli(["run", "--cwd", dir, "--script", "x.json", "--frobnicate"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("--frobnicate");
    const missingDir = await runCli(["run", "--cwd", join(dir, "nope"), "--script", "x.json"]);
    expect(missingDir.code).toBe(2);
    expect(missingDir.stderr).toContain("no such directory");
    const missingScript = await runCli(["run", "--cwd", dir, "--script", join(dir, "nope.json")]);
    expect(missingScript.code).toBe(2);
    expect(missingScript.stderr).toContain("nope.json");
  });

  it("a model error ends the run with exit 1 and executes nothing", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [
      {
        stopReason: "error",
        errorMessage: "rate limited",
        content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "x", content: "y" } }],
      },
    ]);
    const run = await runCli(["run", "--cwd", dir, "--script", script]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("rate limited");
    expect(existsSync(join(dir, "x"))).toBe(false);
  });

  it("with --json, a model error also says why on stderr, not only through exit 1", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [{ stopReason: "error", errorMessage: "rate limited", content: [] }]);
    const run = await runCli(["run", "--cwd", dir, "--script", script, "--json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("gatehouse: the model ended in an error: rate limited");
  });

  // Before: an answer the provider aborted (stopReason "aborted", no Ctrl-C) exited 0, as if the
  // model had finished its task; the reference runtime's print mode exits 1 for it.
  it("a model answer that ends aborted (not by Ctrl-C) exits 1 and says why, with and without --json", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [{ stopReason: "aborted", errorMessage: "stream cut", content: [] }]);
    const json = await runCli(["run", "--cwd", dir, "--script", script, "--json", "--no-session"]);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain("gatehouse: the model's answer was aborted: stream cut");
    const view = await runCli(["run", "--cwd", dir, "--script", script, "--no-session"]);
    expect(view.code).toBe(1);
    expect(view.stdout).toContain("stream cut");
  });

  it("a run cut short by --max-turns says so on stderr, so it does not read as a model that finished", async () => {
    const dir = tempDir();
    const ls = (id: string) => ({ content: [{ type: "toolCall", id, name: "ls", arguments: {} }] });
    const script = writeScript(dir, [ls("A"), ls("B"), ls("C")]);
    const run = await runCli(["run", "--cwd", dir, "--script", script, "--max-turns", "2"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/done · 2 turns · 2 tool calls: 2 ok/);
    expect(run.stderr).toContain("gatehouse: stopped at --max-turns 2: the model had not finished");
    const finished = await runCli(["run", "--cwd", dir, "--script", script, "--max-turns", "5", "--no-session"]);
    expect(finished.stderr).not.toContain("--max-turns");
  });

  it("without --json on a pipe, the plain view reports calls, failures and a summary", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [
      {
        content: [
          { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "secret words" } },
          { type: "toolCall", id: "B", name: "read", arguments: { path: "missing.txt" } },
        ],
      },
      { content: [{ type: "text", text: "all done" }] },
    ]);
    const run = await runCli(["run", "--cwd", dir, "--script", script]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("✓ write a.txt");
    expect(run.stdout).toContain("✗ read missing.txt");
    expect(run.stdout).toContain("all done");
    expect(run.stdout).toMatch(/done · 2 turns · 2 tool calls: 1 ok, 1 failed/);
    expect(run.stdout).not.toContain("secret words");
  });

  it("--sequential runs each call to completion before the next starts", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [
      {
        content: [
          { type: "toolCall", id: "A", name: "bash", arguments: { command: "sleep 0.2; echo A" } },
          { type: "toolCall", id: "B", name: "write", arguments: { path: "b.txt", content: "b" } },
        ],
      },
    ]);
    const run = await runCli(["run", "--cwd", dir, "--script", script, "--json", "--sequential"]);
    const seq = events(run.stdout)
      .map((e) => compact(e as never))
      .filter((s) => s?.startsWith("tool_execution") || s?.includes("toolResult"));
    expect(seq).toEqual([
      "tool_execution_start(A)",
      "tool_execution_end(A)",
      "message_start(toolResult:A)",
      "message_end(toolResult:A)",
      "tool_execution_start(B)",
      "tool_execution_end(B)",
      "message_start(toolResult:B)",
      "message_end(toolResult:B)",
    ]);
  });
});

describe("gatehouse tools and help", () => {
  it("tools --json lists the built-ins with their source", async () => {
    const run = await runCli(["tools", "--json", "--cwd", tempDir()]);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as { name: string; source: { owner: string } }[];
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "ls", "find", "grep", "bash"]);
    expect(tools.every((t) => t.source.owner === "builtin")).toBe(true);
  });

  it("tools marks tools that declare no effects (a path policy cannot check them) and which honour the sandbox", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".gatehouse/extensions"), { recursive: true });
    writeFileSync(
      join(dir, ".gatehouse/extensions/vague.ts"),
      `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "vague", setup(api) {
  api.registerTool(defineTool({ name: "vague_tool", description: "x", parameters: z.object({}),
    execute: () => ({ content: [{ type: "text", text: "x" }] }) }));
} });`,
    );
    const human = await runCli(["tools", "--trust", "--cwd", dir]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^vague_tool .*\[no effects declared: a path policy cannot check it\]$/m);
    expect(human.stdout).toMatch(/^read +builtin$/m);
    const json = JSON.parse((await runCli(["tools", "--json", "--trust", "--cwd", dir])).stdout) as {
      name: string;
      declaresEffects: boolean;
      honoursSandbox: boolean;
    }[];
    expect(json.find((t) => t.name === "vague_tool")).toMatchObject({ declaresEffects: false, honoursSandbox: false });
    expect(json.find((t) => t.name === "bash")).toMatchObject({ declaresEffects: true, honoursSandbox: true });
  });

  it("an unknown command is exit 2 and names the closest command, or where the list is", async () => {
    const run = await runCli(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('gatehouse: unknown command "frobnicate" (gatehouse --help lists every command)\n');
    const typo = await runCli(["rnu"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "rnu"; did you mean "gatehouse run"?');
  });
});

describe("gatehouse run interrupted (Ctrl-C)", () => {
  it("says interrupted at once, exits 130, lists the call it stopped and the one never started, and leaves a session that checks clean", async () => {
    const dir = tempDir();
    const script = writeScript(dir, [
      {
        content: [
          { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "a" } },
          { type: "toolCall", id: "B", name: "bash", arguments: { command: "touch started && sleep 30" } },
          { type: "toolCall", id: "C", name: "write", arguments: { path: "c.txt", content: "c" } },
        ],
      },
      { content: [{ type: "text", text: "never reached" }] },
    ]);
    const home = mkdtempSync(join(tmpdir(), "gh-interrupt-home-"));
    const started = new Promise<void>((resolve) => {
      const watcher = watch(dir, () => {
        if (!existsSync(join(dir, "started"))) return;
        watcher.close();
        resolve();
      });
    });
    const cli = startCli(["run", "go", "--cwd", dir, "--script", script, "--sequential"], {
      env: { GATEHOUSE_HOME: home },
    });
    await started;
    cli.child.kill("SIGINT");
    const run = await cli.exited;
    expect(run.code).toBe(130);
    const text = run.stdout.replace(/\n {2,}/g, " ");
    expect(text).toContain("⏹ interrupted: stopping the running call");
    expect(text).toContain("✓ write a.txt");
    expect(text).toMatch(/✗ bash touch started && sleep 30 · aborted/);
    expect(text).toContain("✗ write c.txt · never started");
    expect(text).toMatch(/^interrupted · 1 turn · 3 tool calls: 1 ok, 1 stopped, 1 never started · /m);
    expect(text).toMatch(
      /left unfinished: bash touch started && sleep 30 \(stopped after [\d.]+s\) · write c\.txt \(never started\)/,
    );
    expect(text).not.toContain("never reached");
    expect(existsSync(join(dir, "c.txt"))).toBe(false);
    const check = await runCli(["session", "check", "--cwd", dir], { env: { GATEHOUSE_HOME: home } });
    expect([check.code, check.stdout]).toEqual([0, expect.stringContaining("0 errors")]);
  });
});

describe("gatehouse run interrupted while grep matches a catastrophic pattern", () => {
  it("Ctrl-C stops the run at once (exit 130, every call aborted), not once the matching budget is spent and with exit 0", {
    timeout: 90_000,
  }, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f.txt"), `${"a".repeat(40)}!\n`);
    const grep = (id: string) => ({
      type: "toolCall",
      id,
      name: "grep",
      arguments: { pattern: "^(a+)+$", path: "f.txt" },
    });
    const script = writeScript(dir, [
      { content: [grep("G1"), grep("G2"), grep("G3")] },
      { content: [{ type: "text", text: "never reached" }] },
    ]);
    const cli = startCli(["run", "go", "--cwd", dir, "--script", script, "--json"]);
    await cli.waitFor((out) => out.includes('"tool_execution_start"'));
    // The matching holds the thread now (the events may only flush once it ends).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const sent = performance.now();
    cli.child.kill("SIGINT");
    const run = await cli.exited;
    expect(performance.now() - sent).toBeLessThan(5_000);
    expect(run.code).toBe(130);
    const ends = events(run.stdout).filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => e.outcome)).toEqual(["aborted", "aborted", "aborted"]);
    expect(run.stdout).not.toContain("never reached");
  });
});

const ESC = "\u001b";

describe("gatehouse run colours (child process, stdout a pipe)", () => {
  it("none into a pipe by default or with NO_COLOR; FORCE_COLOR=1 colours the view without moving the cursor; FORCE_COLOR=0 does not", async () => {
    // A project per run: they run at once, and each writes a new file.
    const run = (env: NodeJS.ProcessEnv) => {
      const dir = tempDir();
      const script = writeScript(dir, [
        { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "a" } }] },
        { content: [{ type: "text", text: "done" }] },
      ]);
      return runCli(["run", "go", "--cwd", dir, "--script", script], { env });
    };
    const unset = { NO_COLOR: undefined, FORCE_COLOR: undefined, NODE_DISABLE_COLORS: undefined };
    const [plain, noColor, forced, forcedOff] = await Promise.all([
      run(unset),
      run({ ...unset, NO_COLOR: "1" }),
      run({ ...unset, FORCE_COLOR: "1", NO_COLOR: "1" }),
      run({ ...unset, FORCE_COLOR: "0" }),
    ]);
    for (const r of [plain, noColor, forced, forcedOff]) expect(r.code).toBe(0);
    for (const r of [plain, noColor, forcedOff]) expect(r.stdout).not.toContain("\u001b");
    const sgr = new RegExp(`${ESC}\\[[0-9;]*m`, "g");
    expect(forced.stdout).toMatch(sgr);
    expect(forced.stdout).not.toMatch(new RegExp(`${ESC}\\[[0-9;]*[ABCDJKH]`));
    const uncoloured = forced.stdout.replace(sgr, "");
    // The same rows but the summary's (its time and session id differ from run to run).
    const rows = (text: string) => text.trimEnd().split("\n").slice(0, -1);
    expect(rows(uncoloured)).toEqual(rows(plain.stdout));
    expect(rows(plain.stdout).length).toBeGreaterThan(3);
  });
});
