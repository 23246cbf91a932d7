import type {
  AnyToolDefinition,
  ExtensionAPI,
  ToolContext,
  ToolProgress,
  ToolResultEvent,
  ToolResultPatch,
} from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import helloTool from "../src/index.ts";

type ResultHandler = (event: ToolResultEvent) => ToolResultPatch | undefined;

/**
 * A fake API that only records what setup registers. Fine here: these tests pin the extension's
 * own logic (greeting, progress, abort, config, signing) in isolation; `with-host.test.ts` runs the
 * same extension through the real host, where validation, hooks and events are the host's job.
 */
async function load(configSection?: unknown) {
  const tools: AnyToolDefinition[] = [];
  const handlers: { event: string; handler: ResultHandler }[] = [];
  const api = {
    registerTool: (def: AnyToolDefinition) => void tools.push(def),
    on: (event: string, handler: ResultHandler) => void handlers.push({ event, handler }),
    // Like the host: parse this extension's section, or {} when the settings have none.
    config: (schema: { parse(value: unknown): unknown }) => schema.parse(configSection ?? {}),
    abortRun: () => {},
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    cwd: "/project",
  } as unknown as ExtensionAPI;
  await helloTool.setup(api);
  const hello = tools.find((t) => t.name === "hello");
  if (!hello) throw new Error("setup did not register hello");
  const onResult = handlers.find((h) => h.event === "tool_result")?.handler;
  if (!onResult) throw new Error("setup did not register a tool_result handler");
  return { hello, onResult, tools, handlers };
}

function context(signal = new AbortController().signal) {
  const updates: ToolProgress[] = [];
  const ctx: ToolContext = {
    toolCallId: "call-1",
    signal,
    onUpdate: (partial) => void updates.push(partial),
    cwd: "/project",
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  };
  return { ctx, updates };
}

/** The tool's args as the host passes them: parsed by its schema, defaults filled in. */
function parse(tool: AnyToolDefinition, raw: Record<string, unknown>) {
  return tool.parameters.parse(raw);
}

const texts = (updates: ToolProgress[]) => updates.map((u) => u.content.map((c) => (c.type === "text" ? c.text : "")));

describe("hello-tool extension", () => {
  it("registers exactly one tool, hello, and one tool_result handler", async () => {
    const { tools, handlers } = await load();
    expect(tools.map((t) => t.name)).toEqual(["hello"]);
    expect(handlers.map((h) => h.event)).toEqual(["tool_result"]);
  });

  it("declares that hello touches nothing, so path policy sees an empty effect list", async () => {
    const { hello } = await load();
    expect(hello.effects?.(parse(hello, { name: "Ada" }))).toEqual([]);
  });

  it("defaults times to 1 and shout to false, and rejects an empty name or more than 5 greetings", async () => {
    const { hello } = await load();
    expect(parse(hello, { name: "Ada" })).toEqual({ name: "Ada", times: 1, shout: false });
    expect(hello.parameters.safeParse({ name: "" }).success).toBe(false);
    expect(hello.parameters.safeParse({ name: "Ada", times: 6 }).success).toBe(false);
    expect(hello.parameters.safeParse({ name: "Ada", times: 1.5 }).success).toBe(false);
  });

  it("greets `times` times and reports one progress update per greeting", async () => {
    const { hello } = await load();
    const { ctx, updates } = context();
    const result = await hello.execute(parse(hello, { name: "Ada", times: 3 }), ctx);
    expect(result).toEqual({
      content: [{ type: "text", text: "Hello, Ada!\nHello, Ada!\nHello, Ada!" }],
      details: { greetings: 3 },
    });
    expect(texts(updates)).toEqual([["greeting 1/3"], ["greeting 2/3"], ["greeting 3/3"]]);
  });

  it("shouts in capitals when asked", async () => {
    const { hello } = await load();
    const result = await hello.execute(parse(hello, { name: "Ada", shout: true }), context().ctx);
    expect(result.content).toEqual([{ type: "text", text: "HELLO, ADA!" }]);
  });

  it("stops early and throws 'aborted' when the signal aborts between greetings", async () => {
    const { hello } = await load();
    const controller = new AbortController();
    const { ctx, updates } = context(controller.signal);
    // Abort from inside the first progress report: deterministic, no timers.
    const onUpdate = ctx.onUpdate;
    ctx.onUpdate = (partial) => {
      onUpdate(partial);
      controller.abort();
    };
    await expect(hello.execute(parse(hello, { name: "Ada", times: 5 }), ctx)).rejects.toThrow("aborted");
    expect(texts(updates)).toEqual([["greeting 1/5"]]);
  });

  it("does not greet at all when the signal is already aborted", async () => {
    const { hello } = await load();
    const controller = new AbortController();
    controller.abort();
    const { ctx, updates } = context(controller.signal);
    await expect(hello.execute(parse(hello, { name: "Ada" }), ctx)).rejects.toThrow("aborted");
    expect(updates).toEqual([]);
  });

  it("uses the configured greeting instead of the default", async () => {
    const { hello } = await load({ greeting: "Hi" });
    const result = await hello.execute(parse(hello, { name: "Ada" }), context().ctx);
    expect(result.content).toEqual([{ type: "text", text: "Hi, Ada!" }]);
  });

  it("rejects an unknown config key instead of ignoring a typo", async () => {
    await expect(load({ greting: "Hi" })).rejects.toThrow(/greting/);
  });

  it("signs hello results, keeping the tool's own details", async () => {
    const { onResult } = await load();
    const event: ToolResultEvent = {
      toolCallId: "call-1",
      toolName: "hello",
      input: { name: "Ada" },
      content: [{ type: "text", text: "Hello, Ada!" }],
      details: { greetings: 1 },
      isError: false,
    };
    expect(onResult(event)).toEqual({ details: { greetings: 1, signedBy: "hello-tool" } });
  });

  it("leaves results of other tools alone", async () => {
    const { onResult } = await load();
    const event: ToolResultEvent = {
      toolCallId: "call-2",
      toolName: "read",
      input: { path: "a.txt" },
      content: [{ type: "text", text: "contents" }],
      details: { lines: 1 },
      isError: false,
    };
    expect(onResult(event)).toBeUndefined();
  });
});
