import { existsSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, defineTool, type GuardedToolCallEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createHost } from "../../src/host/create-host.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { call, quietLogger, runScenario, say, tempDir } from "../helpers/scenario.ts";

const noop = (name: string) =>
  defineTool({
    name,
    description: name,
    parameters: z.object({}),
    execute: () => ({ content: [{ type: "text", text: name }] }),
  });

describe("createHost", () => {
  it("a tool given in code whose name model providers refuse is a usage error naming it", async () => {
    const options = { cwd: tempDir(), model: createScriptedModel({ turns: [] } as never), logger: quietLogger };
    await expect(createHost({ ...options, tools: [noop("ok"), noop("read file")] })).rejects.toThrow(
      'createHost: tools[1]: tool "read file" has a name model providers refuse',
    );
  });

  it("a tool named like a built-in overrides it and inherits its effects when it declares none", async () => {
    const guardSaw: GuardedToolCallEvent[] = [];
    const myRead = defineTool({
      name: "read",
      description: "my read",
      parameters: z.object({ path: z.string() }),
      execute: () => ({ content: [{ type: "text", text: "from my read" }] }),
    });
    const guard = defineExtension({
      name: "guard",
      setup: (api) => api.on("tool_call", (e) => void guardSaw.push(e), { stage: "enforce" }),
    });
    const { result, host } = await runScenario({
      tools: [myRead],
      extensions: [guard],
      turns: [{ content: [call("A", "read", { path: "secret.txt" })] }, say("done")],
    });
    expect(JSON.stringify(result.messages[2])).toContain("from my read");
    expect(guardSaw[0]?.effects).toEqual([{ kind: "read", path: "secret.txt" }]);
    expect(host.tools().find((t) => t.name === "read")).toMatchObject({ overrides: "read", source: { owner: "host" } });
  });

  it("two extensions registering one name: the first in load order wins and the loser is reported", async () => {
    const first = defineExtension({ name: "first", setup: (api) => api.registerTool(noop("dup")) });
    const second = defineExtension({ name: "second", setup: (api) => api.registerTool(noop("dup")) });
    const { host, result } = await runScenario({
      extensions: [first, second],
      turns: [{ content: [call("A", "dup")] }, say("done")],
    });
    expect(host.tools().find((t) => t.name === "dup")?.source.owner).toBe("first");
    const loser = host.extensions().find((e) => e.name === "second");
    expect(loser?.errors.join()).toContain('tool "dup" is already registered by first');
    expect(JSON.stringify(result.messages[2])).toContain('"text":"dup"');
  });

  it("an extension whose setup throws is reported; the others load and its partial registrations are removed", async () => {
    const broken = defineExtension({
      name: "broken",
      setup(api) {
        api.registerTool(noop("half"));
        throw new Error("setup exploded");
      },
    });
    const fine = defineExtension({ name: "fine", setup: (api) => api.registerTool(noop("whole")) });
    const events: unknown[] = [];
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] } as never),
      logger: quietLogger,
      extensions: [broken, fine],
      onEvent: (e) => events.push(e),
    });
    const records = host.extensions();
    expect(records.map((r) => [r.name, r.status])).toEqual([
      ["broken", "failed"],
      ["fine", "loaded"],
    ]);
    // The message, then where the setup threw (this file's line), so a reader can find it.
    const thrown = records[0]?.errors[0] as string;
    expect(thrown).toMatch(/^setup exploded \(at \/.*\/create-host\.test\.ts:\d+\)$/);
    const names = host.tools().map((t) => t.name);
    expect(names).toContain("whole");
    expect(names).not.toContain("half");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "extension_error", extension: "broken", error: thrown }),
    );
  });

  it("an async setup that never finishes fails after the time limit", async () => {
    const hangs = defineExtension({ name: "hangs", setup: () => new Promise(() => {}) });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] } as never),
      logger: quietLogger,
      extensions: [hangs],
      hookTimeoutMs: 30,
    });
    expect(host.extensions()[0]).toMatchObject({ status: "failed" });
    expect(host.extensions()[0]?.errors[0]).toContain("did not finish within 30 ms");
  });

  it("config() parses the extension's section and names the field on error", async () => {
    let parsed: unknown;
    const ok = defineExtension({
      name: "ok",
      setup(api) {
        parsed = api.config(z.object({ level: z.number() }));
      },
    });
    const bad = defineExtension({ name: "bad", setup: (api) => void api.config(z.object({ level: z.number() })) });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] } as never),
      logger: quietLogger,
      extensions: [ok, bad],
      config: { ok: { level: 3 }, bad: { level: "high" } },
    });
    expect(parsed).toEqual({ level: 3 });
    const error = host.extensions()[1]?.errors[0] ?? "";
    expect(error).toContain('Invalid configuration for extension "bad"');
    expect(error).toContain("config.bad.level");
  });

  it("on() rejects an unknown event name at setup, naming the allowed ones", async () => {
    const typo = defineExtension({ name: "typo", setup: (api) => api.on("tool_cal" as never, (() => {}) as never) });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] } as never),
      logger: quietLogger,
      extensions: [typo],
    });
    expect(host.extensions()[0]?.errors[0]).toContain('unknown event "tool_cal"');
  });

  it("an extension's API stops working after the host closes", async () => {
    let late: (() => void) | undefined;
    const ext = defineExtension({
      name: "keeper",
      setup(api) {
        late = () => api.registerTool(noop("later"));
      },
    });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] } as never),
      logger: quietLogger,
      extensions: [ext],
    });
    await host.close();
    expect(() => late?.()).toThrow(/after the extension was unloaded/);
  });

  it("abortRun called while no run is in progress (in setup) stops the next run before any tool runs, naming the extension", async () => {
    // Before, the stop was only logged: the run went on, every call ran, and nothing said it should not have.
    const ran: string[] = [];
    const record = defineTool({
      name: "record",
      description: "record",
      parameters: z.object({}),
      effects: () => [],
      execute: (_args, ctx) => {
        ran.push(ctx.toolCallId);
        return { content: [{ type: "text", text: "ran" }] };
      },
    });
    const stopper = defineExtension({
      name: "stopper",
      setup: (api) => api.abortRun("the audit log cannot be opened"),
    });
    const { result, events, host } = await runScenario({
      tools: [record],
      extensions: [stopper],
      turns: [{ content: [call("A", "record")] }, say("done")],
    });
    expect(ran).toEqual([]);
    expect(result.stoppedBy).toEqual({ extension: "stopper", reason: "the audit log cannot be opened" });
    expect(result.errorMessage).toBe('Stopped by extension "stopper": the audit log cannot be opened');
    expect(events).toContainEqual({
      type: "extension_error",
      extension: "stopper",
      hook: "abortRun",
      error: "the audit log cannot be opened",
    });
    // The stop was for one run: the next one runs.
    const again = await host.run("again");
    expect(again.stoppedBy).toBeUndefined();
    await host.close();
  });

  it("refuses a second run while one is in progress", async () => {
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [{ content: [{ type: "text", text: "hi" }], delayMs: 60_000 }] } as never),
      logger: quietLogger,
    });
    const first = host.run("one");
    await expect(host.run("two")).rejects.toThrow(/already in progress/);
    host.abort();
    await expect(first).resolves.toMatchObject({ aborted: true });
  });

  it("a closed host refuses run, check and reload: its guards are unloaded, so a later call would run unguarded", async () => {
    const cwd = tempDir();
    const noWrites = defineExtension({
      name: "no-writes",
      setup: (api) =>
        api.on("tool_call", (e) => (e.toolName === "write" ? { block: true, reason: "no writes" } : undefined), {
          stage: "enforce",
        }),
    });
    const write = { content: [call("W", "write", { path: "w.txt", content: "x" })] };
    const host = await createHost({
      cwd,
      model: createScriptedModel({ turns: [write, say("a"), write, say("b")] } as never),
      extensions: [noWrites],
      logger: quietLogger,
    });
    expect((await host.check("write", { path: "w.txt", content: "x" })).outcome).toBe("blocked");
    await host.run("one");
    await host.close();
    // Before: the second run executed the write the guard blocks, and check() said "allowed".
    await expect(host.run("two")).rejects.toThrow(/this host is closed/);
    await expect(host.check("write", { path: "w.txt", content: "x" })).rejects.toThrow(/this host is closed/);
    await expect(host.reload()).rejects.toThrow(/this host is closed/);
    await expect(host.close()).resolves.toBeUndefined();
    expect(existsSync(join(cwd, "w.txt"))).toBe(false);
  });

  it("close() during a run aborts it and waits for it to end before unloading the extensions", async () => {
    const order: string[] = [];
    const ext = defineExtension({
      name: "journal",
      setup: (api) => {
        api.on("agent_end", () => void order.push("agent_end"));
        api.onDispose(() => void order.push("dispose"));
      },
    });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [{ content: [{ type: "text", text: "hi" }], delayMs: 60_000 }] } as never),
      extensions: [ext],
      logger: quietLogger,
    });
    const running = host.run("one");
    await host.close();
    order.push("closed");
    await expect(running).resolves.toMatchObject({ aborted: true });
    expect(order).toEqual(["agent_end", "dispose", "closed"]);
  });
});
