import { defineExtension, type GatehouseEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { call, runScenario, say } from "../helpers/scenario.ts";

/** An observer that changes in place every message and result it is shown. */
const mutator = defineExtension({
  name: "mutator",
  setup(api) {
    api.on("message_end", (e) => {
      const m = e.message as { role: string; content: unknown };
      if (m.role === "user") m.content = "CHANGED PROMPT";
      else (m.content as unknown[]).push({ type: "text", text: "CHANGED ANSWER" });
    });
    api.on("tool_execution_end", (e) => {
      (e.result.content[0] as { text: string }).text = "CHANGED END";
    });
    api.on("turn_end", (e) => {
      const first = e.toolResults[0];
      if (first) (first as { content: unknown }).content = [{ type: "text", text: "CHANGED TURN" }];
    });
  },
});

describe("observers see the transcript, they cannot change it (SPEC §4.3: persisted = what the next request receives)", () => {
  it("an observer that changes a message or a result in place fails, naming itself; the context and the next request are untouched", async () => {
    const subscriberErrors: string[] = [];
    const { model, host, events } = await runScenario({
      extensions: [mutator],
      prompt: "list it",
      onEvent: (event) => {
        if (event.type !== "tool_execution_end") return;
        try {
          (event.result.content[0] as { text: string }).text += " + subscriber";
        } catch (error) {
          subscriberErrors.push((error as Error).constructor.name);
        }
      },
      turns: [{ content: [call("A", "ls", {})] }, say("done")],
    });
    const texts = JSON.stringify(host.messages);
    expect(texts).not.toMatch(/CHANGED|subscriber/);
    expect(host.messages[0]).toMatchObject({ role: "user", content: "list it" });
    expect(model.requests[1]?.lastMessage).toMatchObject({ role: "toolResult", toolCallId: "A" });
    expect(JSON.stringify(model.requests[1]?.lastMessage)).not.toContain("CHANGED");
    expect(subscriberErrors).toEqual(["TypeError"]);
    const failed = events.filter(
      (e): e is Extract<GatehouseEvent, { type: "extension_error" }> => e.type === "extension_error",
    );
    expect(failed.map((e) => [e.extension, e.hook])).toEqual(
      expect.arrayContaining([
        ["mutator", "message_end"],
        ["mutator", "tool_execution_end"],
        ["mutator", "turn_end"],
      ]),
    );
  });

  it("a prompt given as a message object is copied, not frozen under its caller", async () => {
    const prompt = { role: "user" as const, content: [{ type: "text" as const, text: "hi" }], timestamp: 1 };
    const { host } = await runScenario({ prompt: prompt as never, turns: [say("ok")] });
    expect(Object.isFrozen(prompt) || Object.isFrozen(prompt.content)).toBe(false);
    expect(host.messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "hi" }] });
  });
});
