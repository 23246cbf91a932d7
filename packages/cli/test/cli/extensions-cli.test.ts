import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, toolExtension } from "../../../host/test/extensions/project.ts";
import { noGuardNotice } from "../../src/guard-notice.ts";
import { CLI_ARGV, events, runCli, writeScript } from "./cli-helpers.ts";

describe("gatehouse extensions / trust / tools", () => {
  it("lists an untrusted project's extensions as skipped; trust loads them; an edit needs trust again; revoke undoes it", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/hello-tool"] }),
      ".gatehouse/extensions/mine.ts": toolExtension("mine", "mine_tool", "x"),
    });
    const env = p.env;
    const list = async () => JSON.parse((await runCli(["extensions", "--json", "--cwd", p.dir], { env })).stdout);
    expect((await list()).map((r: { name: string; status: string }) => [r.name, r.status])).toEqual([
      ["hello-tool", "loaded"],
      ["mine", "skipped"],
    ]);
    const trusted = await runCli(["trust", "--cwd", p.dir], { env });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(".gatehouse/extensions/mine.ts");
    expect((await list())[1]).toMatchObject({ name: "mine", status: "loaded", tools: ["mine_tool"] });

    const tools = JSON.parse((await runCli(["tools", "--json", "--cwd", p.dir], { env })).stdout);
    expect(tools.find((t: { name: string }) => t.name === "mine_tool")).toMatchObject({
      source: { owner: "mine", file: join(p.dir, ".gatehouse/extensions/mine.ts") },
    });

    p.write(".gatehouse/extensions/mine.ts", toolExtension("mine", "mine_tool", "changed"));
    // Trusted code that changed is a failure that stops runs (exit 2), not a quiet skip.
    const human = await runCli(["extensions", "--cwd", p.dir], { env });
    expect(human.code).toBe(2);
    expect(human.stdout).toContain("mine  failed");
    expect(human.stdout).toContain("was edited since trust was granted");

    await runCli(["trust", "--cwd", p.dir], { env });
    expect((await list())[1].status).toBe("loaded");
    const revoked = await runCli(["trust", "--revoke", "--cwd", p.dir], { env });
    expect(revoked.stdout).toContain("Trust revoked");
    expect((await list())[1].status).toBe("skipped");
  });

  it("gatehouse run says plainly on stderr which extensions it skipped and why, and still runs", async () => {
    const p = makeProject({ ".gatehouse/extensions/mine.ts": toolExtension("mine", "mine_tool", "x") });
    const script = writeScript(p.dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], { env: p.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("skipped 1 extension (mine)");
    expect(run.stderr).toContain(`run "gatehouse trust --cwd ${p.dir}"`);
    const withTrust = await runCli(["run", "--cwd", p.dir, "--script", script, "--json", "--trust"], { env: p.env });
    expect(withTrust.stderr).toBe(noGuardNotice([], p.dir));
  });

  it("gatehouse run reports on stderr a tool name two extensions claim: the first in load order wins", async () => {
    const p = makeProject({
      ".gatehouse/extensions/a.ts": toolExtension("first", "dup", "from first"),
      ".gatehouse/extensions/b.ts": toolExtension("second", "dup", "from second"),
    });
    const script = writeScript(p.dir, [{ content: [{ type: "toolCall", id: "A", name: "dup", arguments: {} }] }]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json", "--trust"], { env: p.env });
    expect(run.code).toBe(0);
    const end = events(run.stdout).find((e) => e.type === "tool_execution_end");
    expect(end?.result).toMatchObject({ content: [{ text: "from first" }] });
    expect(run.stderr).toContain(
      `gatehouse: extension second (${join(p.dir, ".gatehouse/extensions/b.ts")}): tool "dup" is already registered by first`,
    );
  });

  it("a malformed settings file is exit 2 naming file, line and column", async () => {
    const p = makeProject({ ".gatehouse/settings.json": '{ "extensions": ["a",] }' });
    const run = await runCli(["extensions", "--cwd", p.dir], { env: p.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(p.dir, ".gatehouse/settings.json")}:1:`);
  });
});

describe("gatehouse run --watch", () => {
  it("an extension edited mid-run takes effect at the next turn boundary", async () => {
    const p = makeProject({ ".gatehouse/extensions/ver.ts": toolExtension("ver", "ver", "v1") });
    // Turn 2 waits before answering: the edit lands during that wait, after turn 2's tool set was
    // fixed, so B still runs v1 and C (turn 3) runs v2.
    const script = writeScript(p.dir, [
      { content: [{ type: "toolCall", id: "A", name: "ver", arguments: {} }] },
      { delayMs: 2500, content: [{ type: "toolCall", id: "B", name: "ver", arguments: {} }] },
      { content: [{ type: "toolCall", id: "C", name: "ver", arguments: {} }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const child = spawn(
      process.execPath,
      [...CLI_ARGV, "run", "--cwd", p.dir, "--script", script, "--json", "--trust", "--watch"],
      {
        env: { ...process.env, ...p.env },
      },
    );
    let stdout = "";
    let turns = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (line.includes('"type":"turn_start"') && ++turns === 2)
          p.write(".gatehouse/extensions/ver.ts", toolExtension("ver", "ver", "v2"));
      }
      stdout += chunk;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const evs = events(stdout);
    const results = evs
      .filter((e) => e.type === "tool_execution_end")
      .map((e) => [e.toolCallId, ((e.result as { content: { text: string }[] }).content[0] as { text: string }).text]);
    expect(results).toEqual([
      ["A", "v1"],
      ["B", "v1"],
      ["C", "v2"],
    ]);
    const types = evs.map((e) => `${e.type}${e.toolCallId ? `:${e.toolCallId}` : ""}`);
    const reload = types.indexOf("extensions_reloaded");
    expect(reload).toBeGreaterThan(types.indexOf("tool_execution_end:B"));
    expect(reload).toBeLessThan(types.indexOf("tool_execution_start:C"));
  });
});

describe("exit codes CI can gate on", () => {
  it("extensions and tools exit 1 when an extension failed to load, naming it, and the setup error carries file:line", async () => {
    const p = makeProject({
      ".gatehouse/extensions/good.ts": toolExtension("good", "good_tool", "x"),
      ".gatehouse/extensions/bad.ts":
        'import { defineExtension } from "@gatehouse/sdk";\nfunction key(): string {\n  throw new Error("BAD_API_KEY is not set");\n}\nexport default defineExtension({ name: "bad", setup() { key(); } });\n',
    });
    const [extensions, tools, json] = await Promise.all([
      runCli(["extensions", "--trust", "--cwd", p.dir], { env: p.env }),
      runCli(["tools", "--trust", "--cwd", p.dir], { env: p.env }),
      runCli(["extensions", "--json", "--trust", "--cwd", p.dir], { env: p.env }),
    ]);
    const file = join(p.dir, ".gatehouse/extensions/bad.ts");
    expect(extensions.code).toBe(1);
    expect(extensions.stdout).toContain(`! BAD_API_KEY is not set (at ${file}:3)`);
    expect(extensions.stderr).toBe("gatehouse: 1 extension failed to load: bad\n");
    expect(json.code).toBe(1);
    expect(tools.code).toBe(1);
    expect(tools.stdout).toMatch(/^good_tool /m);
    expect(tools.stderr).toContain(
      `gatehouse: extension bad (${file}) failed to load: BAD_API_KEY is not set (at ${file}:3)`,
    );
  });

  it("extensions and tools exit 0 when everything loaded, and when project code was only skipped for want of trust", async () => {
    const p = makeProject({ ".gatehouse/extensions/good.ts": toolExtension("good", "good_tool", "x") });
    const runs = await Promise.all([
      runCli(["extensions", "--cwd", p.dir], { env: p.env }),
      runCli(["tools", "--cwd", p.dir], { env: p.env }),
      runCli(["extensions", "--trust", "--cwd", p.dir], { env: p.env }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs[0]?.stdout).toContain("good  skipped");
  });

  it("an extension whose top-level await never settles fails by name (a required one stops the run, exit 2) instead of the CLI ending silently with exit 0", {
    timeout: 60_000,
  }, async () => {
    // Before, nothing kept the event loop waiting on the pending import: every command ended at once
    // with no output and exit 0, and gatehouse run ran nothing yet reported success.
    const hang = 'await new Promise(() => {});\nexport default { name: "hangs", setup() {} };\n';
    const p = makeProject({
      ".gatehouse/extensions/hangs.ts": hang,
      ".gatehouse/extensions/good.ts": toolExtension("good", "good_tool", "x"),
    });
    const required = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: [{ spec: "./guard.mjs", required: true }] }),
      "guard.mjs": hang,
    });
    const script = writeScript(required.dir, [
      { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "w.txt", content: "x" } }] },
    ]);
    const [extensions, run] = await Promise.all([
      runCli(["extensions", "--trust", "--cwd", p.dir], { env: p.env }),
      runCli(["run", "--script", script, "--trust", "--no-session", "--cwd", required.dir], { env: required.env }),
    ]);
    const file = join(p.dir, ".gatehouse/extensions/hangs.ts");
    expect(extensions.code).toBe(1);
    expect(extensions.stdout).toContain(
      `! ${file} did not finish loading within 5000 ms (a top-level await that never settles?)`,
    );
    expect(extensions.stdout).toContain("good  loaded");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(required.dir, "guard.mjs")} did not finish loading within 5000 ms`);
    expect(existsSync(join(required.dir, "w.txt"))).toBe(false);
  });

  it("a run whose tool returns a promise that never settles says which call never finished and exits 1, not silently 0", async () => {
    // Before, with no timer or socket left the event loop drained: the CLI ended mid-run with no
    // summary, no message and exit 0.
    const p = makeProject({
      ".gatehouse/extensions/stuck.ts": `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "stuck", setup(api) {
  api.registerTool(defineTool({ name: "stuck", description: "never settles", parameters: z.object({}), effects: () => [],
    execute: () => new Promise(() => {}) }));
} });`,
    });
    const script = writeScript(p.dir, [
      { content: [{ type: "toolCall", id: "A", name: "stuck", arguments: {} }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    for (const json of [[], ["--json"]]) {
      const run = await runCli(["run", "--script", script, "--trust", "--no-session", "--cwd", p.dir, ...json], {
        env: p.env,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "gatehouse: run stopped before it finished: tool stuck (call A) never finished; it waited on a promise that can never settle",
      );
    }
  });

  it("tools exits 2 when a required guard cannot run, with the same explanation as extensions", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({
        extensions: ["@gatehouse/protected-paths"],
        config: { "protected-paths": { bash: "bogus" } },
      }),
    });
    const [tools, extensions] = await Promise.all([
      runCli(["tools", "--cwd", p.dir], { env: p.env }),
      runCli(["extensions", "--cwd", p.dir], { env: p.env }),
    ]);
    expect([tools.code, extensions.code]).toEqual([2, 2]);
    expect(tools.stderr).toContain('required guard "protected-paths"');
    expect(tools.stderr).toContain(extensions.stderr.split("\n")[0] as string);
  });
});
