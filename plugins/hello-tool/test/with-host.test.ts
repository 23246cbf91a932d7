import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineExtension, type GatehouseEvent, type ToolEffect, type ToolResultMessage } from "@gatehouse/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// Relative on purpose: the host depends on nothing here, and this package must not depend on the host.
import { createHost } from "../../../packages/host/src/index.ts";
import { createScriptedModel } from "../../../packages/host/src/model/index.ts";
import helloTool from "../src/index.ts";

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "hello-tool-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(cwd, { recursive: true, force: true });
});

/** One model turn calling hello with `args`, then a text turn; returns the events and the host. */
async function runHello(args: Record<string, unknown>, config?: Record<string, unknown>) {
  const events: GatehouseEvent[] = [];
  // Stands in for path policy: an enforce-stage guard sees the effects every call declares.
  const guardSaw: (readonly ToolEffect[] | undefined)[] = [];
  const policySpy = defineExtension({
    name: "policy-spy",
    setup: (api) => api.on("tool_call", (e) => void guardSaw.push(e.effects), { stage: "enforce" }),
  });
  const model = createScriptedModel({
    turns: [
      { content: [{ type: "toolCall", id: "H1", name: "hello", arguments: args }] },
      { content: [{ type: "text", text: "greeted" }] },
    ],
  });
  const host = await createHost({
    cwd,
    model,
    extensions: [helloTool, policySpy],
    ...(config ? { config } : {}),
    onEvent: (event) => void events.push(event),
  });
  const result = await host.run("say hello to Ada");
  await host.close();
  const ofType = <K extends GatehouseEvent["type"]>(type: K) =>
    events.filter((e): e is Extract<GatehouseEvent, { type: K }> => e.type === type);
  const toolResult = result.messages.find((m): m is ToolResultMessage => m.role === "toolResult");
  return { host, model, result, ofType, toolResult, guardSaw };
}

const textOf = (content: { type: string; text?: string }[] | undefined) => content?.map((c) => c.text).join("");

describe("hello-tool in the real host", () => {
  it("offers hello to the model and runs a scripted call with times 3 to a final text turn", async () => {
    const { model, result, ofType, toolResult, guardSaw } = await runHello({ name: "Ada", times: 3 });
    expect(model.requests[0]?.toolNames).toContain("hello");
    expect(result.stopReason).toBe("stop");
    expect(textOf(toolResult?.content)).toBe("Hello, Ada!\nHello, Ada!\nHello, Ada!");
    expect(toolResult?.isError).toBe(false);
    expect(ofType("tool_execution_end")[0]).toMatchObject({ toolName: "hello", outcome: "executed" });
    // Declared, not missing: a guard sees "touches nothing" rather than "unknown".
    expect(guardSaw).toEqual([[]]);
  });

  it("turns each greeting's progress into a tool_execution_update event, none into the transcript", async () => {
    const { result, ofType } = await runHello({ name: "Ada", times: 3 });
    const updates = ofType("tool_execution_update");
    expect(updates.map((u) => textOf(u.partialResult.content))).toEqual([
      "greeting 1/3",
      "greeting 2/3",
      "greeting 3/3",
    ]);
    expect(updates.every((u) => u.toolCallId === "H1")).toBe(true);
    expect(JSON.stringify(result.messages)).not.toContain("greeting 1/3");
  });

  it("signs the persisted result through its tool_result handler, keeping the tool's details", async () => {
    const { toolResult, ofType } = await runHello({ name: "Ada", times: 3 });
    expect(toolResult?.details).toEqual({ greetings: 3, signedBy: "hello-tool" });
    expect(ofType("tool_execution_end")[0]?.result.details).toEqual({ greetings: 3, signedBy: "hello-tool" });
  });

  it("uses the greeting from config['hello-tool']", async () => {
    const { toolResult } = await runHello({ name: "Ada", times: 2 }, { "hello-tool": { greeting: "Hi" } });
    expect(textOf(toolResult?.content)).toBe("Hi, Ada!\nHi, Ada!");
  });

  it("answers invalid arguments with an error result naming the field, without running the tool", async () => {
    const { ofType, toolResult } = await runHello({ name: "Ada", times: 9 });
    expect(ofType("tool_execution_update")).toEqual([]);
    expect(ofType("tool_execution_end")[0]?.outcome).toBe("invalid");
    expect(toolResult?.isError).toBe(true);
    expect(textOf(toolResult?.content)).toContain("times");
  });

  it("fails to load on a config typo, naming the field, and then offers no hello tool", async () => {
    vi.stubEnv("GATEHOUSE_LOG_LEVEL", "silent"); // the expected load error would clutter stderr
    const { host, model, ofType } = await runHello({ name: "Ada" }, { "hello-tool": { greting: "Hi" } });
    const record = host.extensions().find((e) => e.name === "hello-tool");
    expect(record?.status).toBe("failed");
    expect(record?.errors[0]).toContain("greting");
    expect(model.requests[0]?.toolNames).not.toContain("hello");
    expect(ofType("tool_execution_end")[0]?.outcome).toBe("unknown");
  });
});
