import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compact, tempDir } from "../../../host/test/helpers/scenario.ts";
import { startFixtureServer } from "../../../host/test/model/providers/fixture-server.ts";
import { noGuardNotice } from "../../src/guard-notice.ts";
import { events, runCli } from "./cli-helpers.ts";

// The CLI against a loopback server replaying recorded provider responses: no network, real HTTP.
describe("gatehouse run --model", () => {
  it("runs a real-provider turn end to end through the CLI (openai-compatible wire format)", async () => {
    const server = await startFixtureServer([{ file: "chat-completions/text.sse" }]);
    try {
      const dir = tempDir();
      const run = await runCli([
        "run",
        "how are things?",
        "--cwd",
        dir,
        "--json",
        "--model",
        "openai-compatible:local-model",
        "--base-url",
        server.baseURL,
      ]);
      expect(run.stderr).toBe(noGuardNotice([], dir));
      expect(run.code).toBe(0);
      const evs = events(run.stdout);
      expect(evs.map((e) => compact(e as never)).filter(Boolean)).toEqual([
        "agent_start",
        "turn_start",
        "message_start(user)",
        "message_end(user)",
        "message_start(assistant)",
        "message_end(assistant)",
        "turn_end([])",
        "agent_end(2)",
      ]);
      const assistant = evs.find(
        (e) => e.type === "message_end" && (e.message as { role: string }).role === "assistant",
      );
      expect(assistant?.message).toMatchObject({
        role: "assistant",
        stopReason: "stop",
        usage: { input: 311, output: 17 },
      });
      expect(evs.some((e) => e.type === "message_update")).toBe(true);
      const request = server.requests[0]?.body as {
        model: string;
        messages: { role: string; content: unknown }[];
        tools: { function: { name: string } }[];
      };
      expect(request.model).toBe("local-model");
      expect(request.messages[0]).toMatchObject({ role: "system" });
      expect(JSON.stringify(request.messages[0]?.content)).toContain("- write: ");
      expect(request.tools.map((t) => t.function.name)).toEqual([
        "read",
        "write",
        "edit",
        "ls",
        "find",
        "grep",
        "bash",
      ]);
    } finally {
      await server.close();
    }
  });

  it("a provider 401 ends the run with exit 1 and an actionable message that never shows the key", async () => {
    const server = await startFixtureServer([{ file: "openai-responses/error-401.json", status: 401 }]);
    try {
      const key = "sk-test-gatehouse-SECRET-0123456789";
      const run = await runCli(
        ["run", "hi", "--cwd", tempDir(), "--model", "openai:gpt-4.1", "--base-url", server.baseURL],
        {
          env: { OPENAI_API_KEY: key },
        },
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("Authentication failed for openai");
      expect(run.stdout).toContain("OPENAI_API_KEY");
      expect(run.stdout + run.stderr).not.toContain(key);
    } finally {
      await server.close();
    }
  });

  it("a base URL in the committed project settings is refused before any request: the key never leaves", async () => {
    const server = await startFixtureServer([{ file: "openai-responses/error-401.json", status: 401 }]);
    try {
      const key = "sk-test-gatehouse-SECRET-0123456789";
      const dir = tempDir();
      mkdirSync(join(dir, ".gatehouse"));
      const settings = join(dir, ".gatehouse", "settings.json");
      writeFileSync(settings, JSON.stringify({ model: { model: "openai:gpt-4.1", baseURL: server.baseURL } }));
      const run = await runCli(["run", "hi", "--cwd", dir], { env: { OPENAI_API_KEY: key } });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`${settings}:1:\\d+: model\\.baseURL may not be set in the project's settings`),
      );
      expect(server.requests).toHaveLength(0);
      // settings.local.json is local by convention only: a repository can commit it.
      writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify({ model: { model: "openai:gpt-4.1" } }));
      const local = join(dir, ".gatehouse", "settings.local.json");
      writeFileSync(local, JSON.stringify({ model: { baseURL: server.baseURL } }));
      const committed = await runCli(["run", "hi", "--cwd", dir], { env: { OPENAI_API_KEY: key } });
      expect(committed.code).toBe(2);
      expect(committed.stderr).toMatch(new RegExp(`${local}:1:\\d+: model\\.baseURL may not be set`));
      expect(server.requests).toHaveLength(0);
      // The user's own settings may name it (the request reaches the server, which answers 401).
      rmSync(local);
      const home = tempDir();
      writeFileSync(join(home, "settings.json"), JSON.stringify({ model: { baseURL: server.baseURL } }));
      const user = await runCli(["run", "hi", "--cwd", dir], { env: { OPENAI_API_KEY: key, GATEHOUSE_HOME: home } });
      expect(user.code).toBe(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("headers in the committed project settings are refused before any request: they could replace the user's key", async () => {
    const server = await startFixtureServer([{ file: "openai-responses/error-401.json", status: 401 }]);
    try {
      const dir = tempDir();
      mkdirSync(join(dir, ".gatehouse"));
      const settings = join(dir, ".gatehouse", "settings.json");
      const attacker = { Authorization: "Bearer sk-repository-account" };
      writeFileSync(settings, JSON.stringify({ model: { model: "openai:gpt-4.1", headers: attacker } }));
      const env = { OPENAI_API_KEY: "sk-test-user", OPENAI_BASE_URL: server.baseURL };
      const run = await runCli(["run", "hi", "--cwd", dir], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`${settings}:1:\\d+: model\\.headers may not be set in the project's settings`),
      );
      expect(server.requests).toHaveLength(0);
      // The user's own settings may set them.
      writeFileSync(settings, JSON.stringify({ model: { model: "openai:gpt-4.1" } }));
      const home = tempDir();
      writeFileSync(join(home, "settings.json"), JSON.stringify({ model: { headers: { "X-Title": "t" } } }));
      expect((await runCli(["run", "hi", "--cwd", dir], { env: { ...env, GATEHOUSE_HOME: home } })).code).toBe(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("a missing key, a malformed spec and a missing prompt are usage errors naming what to do", async () => {
    const dir = tempDir();
    const noKey = await runCli(["run", "hi", "--cwd", dir, "--model", "anthropic:claude-x"], {
      env: { ANTHROPIC_API_KEY: "" },
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("ANTHROPIC_API_KEY");
    const badSpec = await runCli(["run", "hi", "--cwd", dir, "--model", "gpt-4"]);
    expect(badSpec.code).toBe(2);
    expect(badSpec.stderr).toMatch(/provider:model/);
    const noPrompt = await runCli([
      "run",
      "--cwd",
      dir,
      "--model",
      "openai-compatible:m",
      "--base-url",
      "http://127.0.0.1:9/v1",
    ]);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain("a prompt is needed");
    const nothing = await runCli(["run", "hi", "--cwd", dir]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("--script FILE");
  });

  it("gatehouse models lists providers and whether a key is set, never the key", async () => {
    const key = "sk-ant-very-secret";
    const run = await runCli(["models", "--json", "--cwd", tempDir()], {
      env: { ANTHROPIC_API_KEY: key, OPENAI_API_KEY: "" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(key);
    const listed = JSON.parse(run.stdout) as { providers: { provider: string; hasKey: boolean }[] };
    expect(listed.providers.find((p) => p.provider === "anthropic")?.hasKey).toBe(true);
    expect(listed.providers.find((p) => p.provider === "openai")?.hasKey).toBe(false);
  });
});
