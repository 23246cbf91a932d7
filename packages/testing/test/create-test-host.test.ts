import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineExtension, defineTool, z } from "@gatehouse/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestHost, type TestHost, toolCall, turn } from "../src/index.ts";

const open: TestHost[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const t of open.splice(0)) await t.close();
});

async function start(options: Parameters<typeof createTestHost>[0]) {
  const t = await createTestHost(options);
  open.push(t);
  return t;
}

const shout = defineTool({
  name: "shout",
  description: "Upper-cases a text.",
  parameters: z.object({ text: z.string() }),
  effects: () => [],
  execute: ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }], details: { chars: text.length } }),
});

const noEnv = defineExtension({
  name: "no-env",
  setup(api) {
    api.registerTool(shout);
    api.on(
      "tool_call",
      (e) => (e.input.path.startsWith(".env") ? { block: true, reason: "secrets stay put" } : undefined),
      { stage: "enforce", tools: ["write"] },
    );
  },
});

describe("createTestHost", () => {
  it("runs the script through a real host and returns events, transcript, audit and files written", async () => {
    const t = await start({
      extensions: [noEnv],
      files: { "README.md": "hello\n" },
      turns: [
        turn(
          toolCall("A", shout, { text: "hi" }),
          toolCall("B", "write", { path: ".env", content: "KEY=1" }),
          toolCall("C", "write", { path: "notes/today.md", content: "ok" }),
        ),
        turn("done"),
      ],
    });
    const result = await t.run("go");
    expect(result.stopReason).toBe("stop");
    expect(t.expectExecuted("A").text).toBe("HI");
    expect(t.expectBlocked("B", { by: "no-env", reason: "secrets stay put" })).toMatchObject({
      toolName: "write",
      requested: { path: ".env", content: "KEY=1" },
    });
    t.expectBlocked("B", { reason: /secrets/ });
    expect(t.written()).toEqual({ "notes/today.md": "ok" });
    expect(t.file(".env")).toBeUndefined();
    expect(t.file("README.md")).toBe("hello\n");
    expect(t.audit.map((e) => [e.toolCallId, e.outcome]).sort()).toEqual([
      ["A", "executed"],
      ["B", "blocked"],
      ["C", "executed"],
    ]);
    expect(t.transcript.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "toolResult",
      "toolResult",
      "assistant",
    ]);
    expect(t.eventsOf("extension_loaded").map((e) => e.extension)).toEqual(["no-env"]);
    expect(t.eventsOf("tool_execution_end")).toHaveLength(3);
  });

  it("expectBlocked and expectExecuted fail with what happened instead", async () => {
    const t = await start({
      extensions: [noEnv],
      turns: [turn(toolCall("A", "write", { path: ".env", content: "x" }), toolCall("B", shout, { text: "x" }))],
    });
    await t.run();
    expect(() => t.expectExecuted("A")).toThrow(
      'tool call "A" (write) was blocked by no-env, not executed: secrets stay put',
    );
    expect(() => t.expectBlocked("B")).toThrow('tool call "B" (shout) was executed, not blocked: X');
    expect(() => t.expectBlocked("A", { by: "protected-paths" })).toThrow(
      'tool call "A" (write) was blocked by no-env, not by protected-paths',
    );
    expect(() => t.expectBlocked("A", { reason: /password/ })).toThrow(
      "was blocked for another reason: secrets stay put",
    );
    expect(() => t.call("Z")).toThrow('no tool call "Z" has ended; the calls that did: A (write), B (shout)');
  });

  it("an extension that fails to load rejects, naming it and why, unless allowLoadErrors", async () => {
    const broken = defineExtension({
      name: "broken",
      setup: (api) => void api.config(z.object({ level: z.number() })),
    });
    await expect(createTestHost({ extensions: [broken], config: { broken: { level: "high" } } })).rejects.toThrow(
      /an extension did not load \(pass allowLoadErrors: true to test that\):\n {2}broken \(inline\) failed: .*config\.broken\.level/,
    );
    const t = await start({ extensions: [broken], config: { broken: { level: "high" } }, allowLoadErrors: true });
    expect(t.extensions()[0]?.status).toBe("failed");
  });

  it("settings make it discover the project like the CLI: a drop-in file, trusted, with its config", async () => {
    const t = await start({
      files: {
        ".gatehouse/extensions/greet.ts": `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({
  name: "greet",
  setup(api) {
    const { word } = api.config(z.object({ word: z.string() }));
    api.registerTool(defineTool({ name: "greet", description: "greets", parameters: z.object({}), effects: () => [],
      execute: () => ({ content: [{ type: "text", text: word }] }) }));
  },
});
`,
      },
      settings: { config: { greet: { word: "howdy" } } },
      turns: [turn(toolCall("G", "greet"))],
    });
    await t.run();
    expect(t.expectExecuted("G").text).toBe("howdy");
  });

  it("malformed turns are named like a script file's errors", async () => {
    await expect(createTestHost({ turns: [{ content: [{ type: "toolCall", name: 7 }] }] as never })).rejects.toThrow(
      /createTestHost\(\{ turns \}\).*turns\[0\]\.content\[0\]\.name/,
    );
  });

  it("never reads the machine's managed settings, and close removes only the temp directories it made", async () => {
    const managed = join(mkdtempSync(join(tmpdir(), "gh-managed-")), "managed.json");
    writeFileSync(managed, JSON.stringify({ extensions: ["./does-not-exist.ts"] }));
    vi.stubEnv("GATEHOUSE_MANAGED_SETTINGS", managed);
    const own = mkdtempSync(join(tmpdir(), "gh-own-"));
    const t = await createTestHost({ cwd: own, settings: {} });
    const made = t.home;
    expect(t.extensions()).toEqual([]);
    await t.close();
    expect(existsSync(made)).toBe(false);
    expect(existsSync(own)).toBe(true);
  });

  it("onEvent sees each event as it happens, with the test host to act on", async () => {
    const seen: string[] = [];
    const t = await start({
      extensions: [noEnv],
      turns: [turn(toolCall("A", shout, { text: "a" })), turn(toolCall("B", shout, { text: "b" })), turn("end")],
      onEvent: (event, th) => {
        if (event.type === "tool_execution_end") {
          seen.push(event.toolCallId);
          if (event.toolCallId === "A") th.host.steer("and B too");
        }
      },
    });
    await t.run();
    expect(seen).toEqual(["A", "B"]);
    expect(t.transcript.some((m) => m.role === "user" && m.content === "and B too")).toBe(true);
  });
});
