// The example's tests, written the way an author outside this repository writes them: the extension
// by its package name, a real host from @gatehouse/testing, and nothing from the host's sources.
// `gatehouse init extension NAME` scaffolds a test of this shape.
import helloTool from "@gatehouse/hello-tool";
import { defineExtension, type ToolEffect, type ToolResultMessage } from "@gatehouse/sdk";
import { createTestHost, type TestHost, type TestHostOptions, toolCall, turn } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
});

/** Stands in for path policy: an enforce-stage guard that records the effects each call declares. */
function policySpy() {
  const saw: (readonly ToolEffect[] | undefined)[] = [];
  const extension = defineExtension({
    name: "policy-spy",
    setup: (api) => api.on("tool_call", (e) => void saw.push(e.effects), { stage: "enforce" }),
  });
  return { saw, extension };
}

/** One model turn calling hello with `args` (id H1), then a text turn; the run is done when it returns. */
async function runHello(args: Record<string, unknown>, options: TestHostOptions = {}) {
  const t = await createTestHost({
    extensions: [helloTool],
    turns: [turn(toolCall("H1", "hello", args)), turn("greeted")],
    ...options,
  });
  hosts.push(t);
  const result = await t.run("say hello to Ada");
  return { t, result };
}

const textOf = (content: readonly { type: string; text?: string }[] | undefined) =>
  content?.map((c) => c.text).join("");
const toolResults = (t: TestHost) => t.transcript.filter((m): m is ToolResultMessage => m.role === "toolResult");

describe("hello-tool", () => {
  it("registers hello and one tool_result handler, and runs a call with times 3 to a final text turn", async () => {
    const spy = policySpy();
    const { t, result } = await runHello({ name: "Ada", times: 3 }, { extensions: [helloTool, spy.extension] });
    expect(t.extensions().find((e) => e.name === "hello-tool")).toMatchObject({
      status: "loaded",
      tools: ["hello"],
      handlers: ["tool_result[hello]"],
    });
    expect(result.stopReason).toBe("stop");
    t.expectExecuted("H1");
    expect(textOf(toolResults(t)[0]?.content)).toBe("Hello, Ada!\nHello, Ada!\nHello, Ada!");
    // Declared, not missing: a guard sees "touches nothing" rather than "unknown".
    expect(spy.saw).toEqual([[]]);
    expect(t.written()).toEqual({});
  });

  it("defaults times to 1 and shout to false; shouts in capitals when asked", async () => {
    const plain = await runHello({ name: "Ada" });
    expect(textOf(toolResults(plain.t)[0]?.content)).toBe("Hello, Ada!");
    const loud = await runHello({ name: "Ada", shout: true });
    expect(textOf(toolResults(loud.t)[0]?.content)).toBe("HELLO, ADA!");
  });

  it("turns each greeting's progress into a tool_execution_update event, none into the transcript", async () => {
    const { t } = await runHello({ name: "Ada", times: 3 });
    const updates = t.eventsOf("tool_execution_update");
    expect(updates.map((u) => textOf(u.partialResult.content))).toEqual([
      "greeting 1/3",
      "greeting 2/3",
      "greeting 3/3",
    ]);
    expect(updates.every((u) => u.toolCallId === "H1")).toBe(true);
    expect(JSON.stringify(t.transcript)).not.toContain("greeting 1/3");
  });

  it("signs hello's results keeping the tool's details, and leaves other tools' results alone", async () => {
    const t = await createTestHost({
      extensions: [helloTool],
      files: { "a.txt": "contents\n" },
      turns: [
        turn(toolCall("H1", "hello", { name: "Ada", times: 2 }), toolCall("R1", "read", { path: "a.txt" })),
        turn("done"),
      ],
    });
    hosts.push(t);
    await t.run();
    const [hello, read] = toolResults(t);
    expect(hello?.details).toEqual({ greetings: 2, signedBy: "hello-tool" });
    expect(t.call("H1").result.details).toEqual({ greetings: 2, signedBy: "hello-tool" });
    expect(read?.toolName).toBe("read");
    expect(JSON.stringify(read?.details ?? {})).not.toContain("signedBy");
  });

  it("uses the greeting from config['hello-tool']", async () => {
    const { t } = await runHello({ name: "Ada", times: 2 }, { config: { "hello-tool": { greeting: "Hi" } } });
    expect(textOf(toolResults(t)[0]?.content)).toBe("Hi, Ada!\nHi, Ada!");
  });

  it("answers invalid arguments with an error result naming the field, without running the tool", async () => {
    for (const args of [{ name: "" }, { name: "Ada", times: 9 }, { name: "Ada", times: 1.5 }]) {
      const { t } = await runHello(args);
      expect(t.call("H1").outcome).toBe("invalid");
      expect(t.eventsOf("tool_execution_update")).toEqual([]);
      const result = toolResults(t)[0];
      expect(result?.isError).toBe(true);
      expect(textOf(result?.content)).toContain(args.name === "" ? "name" : "times");
    }
  });

  it("stops between greetings when the run is aborted, and reports the call as failed", async () => {
    const { t } = await runHello(
      { name: "Ada", times: 5 },
      // Abort from the first progress report: deterministic, no timers.
      { onEvent: (event, th) => event.type === "tool_execution_update" && th.host.abort() },
    );
    expect(t.eventsOf("tool_execution_update")).toHaveLength(1);
    expect(t.call("H1").outcome).not.toBe("executed");
    expect(textOf(toolResults(t)[0]?.content)).toContain("aborted");
  });

  it("fails to load on a config typo, naming the field, and then offers no hello tool", async () => {
    const { t } = await runHello(
      { name: "Ada" },
      { config: { "hello-tool": { greting: "Hi" } }, allowLoadErrors: true },
    );
    const record = t.extensions().find((e) => e.name === "hello-tool");
    expect(record?.status).toBe("failed");
    expect(record?.errors[0]).toContain("greting");
    expect(t.call("H1").outcome).toBe("unknown");
  });

  it("loads by package name from a project's settings, as the CLI discovers it", async () => {
    const t = await createTestHost({
      settings: { extensions: ["@gatehouse/hello-tool"] },
      turns: [turn(toolCall("H1", "hello", { name: "Ada" })), turn("done")],
    });
    hosts.push(t);
    await t.run();
    expect(t.expectExecuted("H1").result.details).toEqual({ greetings: 1, signedBy: "hello-tool" });
  });
});
