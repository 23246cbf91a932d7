import type { AssistantMessage, Message, ToolResultMessage } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { toModelMessages } from "../../../src/model/providers/to-model-messages.ts";
import { portableToolCallId, ToolCallIds } from "../../../src/model/providers/tool-call-ids.ts";

const call = (id: string, name = "read") => ({ type: "toolCall" as const, id, name, arguments: { path: `${id}.txt` } });

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return { role: "assistant", content, stopReason: "toolUse", timestamp: 0, ...extra };
}

function result(toolCallId: string, text: string, isError = false): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName: "read", content: [{ type: "text", text }], isError, timestamp: 0 };
}

describe("toModelMessages", () => {
  it("answers the calls in call order, whatever order the results were recorded in", () => {
    const out = toModelMessages([
      { role: "user", content: "go", timestamp: 0 },
      assistant([{ type: "text", text: "two" }, call("A"), call("B")]),
      result("B", "b out"),
      result("A", "a out", true),
    ]);
    expect(out).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "two" },
          { type: "tool-call", toolCallId: "A", toolName: "read", input: { path: "A.txt" } },
          { type: "tool-call", toolCallId: "B", toolName: "read", input: { path: "B.txt" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "A", toolName: "read", output: { type: "error-text", value: "a out" } },
          { type: "tool-result", toolCallId: "B", toolName: "read", output: { type: "text", value: "b out" } },
        ],
      },
    ]);
  });

  it("synthesizes an error result for a call without one and drops a result without a call", () => {
    const out = toModelMessages([assistant([call("A")]), result("ZZZ", "stray")]);
    expect(out[1]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "A",
          toolName: "read",
          output: {
            type: "error-text",
            value:
              "No result was recorded for this tool call: the run stopped before it finished, so it may or may not have run.",
          },
        },
      ],
    });
    expect(JSON.stringify(out)).not.toContain("stray");
  });

  it("keeps the calls of an errored message and answers them with why they did not run", () => {
    const errored = assistant([call("A")], { stopReason: "error", errorMessage: "The model sent malformed JSON." });
    const out = toModelMessages([errored]);
    expect(out[1]?.content).toEqual([
      {
        type: "tool-result",
        toolCallId: "A",
        toolName: "read",
        output: {
          type: "error-text",
          value:
            'Not executed: the assistant message ended with stopReason "error" (The model sent malformed JSON.), so none of its tool calls ran.',
        },
      },
    ]);
  });

  it("omits thinking and empty text, and drops messages left empty", () => {
    const out = toModelMessages([
      { role: "user", content: "", timestamp: 0 },
      { role: "user", content: [{ type: "text", text: "" }], timestamp: 0 },
      assistant(
        [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "" },
        ],
        { stopReason: "error" },
      ),
      { role: "user", content: "next", timestamp: 0 },
    ]);
    expect(out).toEqual([{ role: "user", content: "next" }]);
  });

  it("sends user images as base64 image parts and tool images as image-data content", () => {
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    const out = toModelMessages([
      { role: "user", content: [{ type: "text", text: "see" }, image], timestamp: 0 },
      assistant([call("A")]),
      { ...result("A", "a picture"), content: [{ type: "text", text: "a picture" }, image] },
    ]);
    expect(out[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
      ],
    });
    expect(out[2]?.content).toEqual([
      {
        type: "tool-result",
        toolCallId: "A",
        toolName: "read",
        output: {
          type: "content",
          value: [
            { type: "text", text: "a picture" },
            { type: "image-data", data: "iVBORw0KGgo=", mediaType: "image/png" },
          ],
        },
      },
    ]);
  });

  it("gives an empty result a placeholder, since providers reject empty tool results", () => {
    const out = toModelMessages([assistant([call("A")]), { ...result("A", ""), content: [] }]);
    expect(out[1]?.content).toEqual([
      { type: "tool-result", toolCallId: "A", toolName: "read", output: { type: "text", value: "(no output)" } },
    ]);
  });

  it("maps ids a provider would reject, and repeated ids, to distinct stable ids on call and result alike", () => {
    const messages: Message[] = [
      assistant([call("call|x"), call("same"), call("same")]),
      result("same", "first same"),
      result("call|x", "x"),
      result("same", "second same"),
      assistant([call("same")]),
      result("same", "third same"),
    ];
    const out = toModelMessages(messages);
    const callIds = [out[0], out[2]].flatMap((m) =>
      ((m?.content ?? []) as { type: string; toolCallId: string }[]).map((p) => p.toolCallId),
    );
    const results = [out[1], out[3]].flatMap((m) =>
      ((m?.content ?? []) as { toolCallId: string; output: { value: string } }[]).map((p) => [
        p.toolCallId,
        p.output.value,
      ]),
    );
    expect(callIds[0]).toBe(portableToolCallId("call|x"));
    expect(callIds[1]).toBe("same");
    expect(new Set(callIds).size).toBe(4);
    for (const id of callIds) expect(id).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(results).toEqual([
      [callIds[0], "x"],
      [callIds[1], "first same"],
      [callIds[2], "second same"],
      [callIds[3], "third same"],
    ]);
    // Deterministic: the same history gives the same wire ids.
    expect(toModelMessages(messages)).toEqual(out);
  });

  it("keeps portable ids of up to 40 characters and maps longer ones", () => {
    const ids = new ToolCallIds();
    expect(ids.next("toolu_01A09q90qw90lq917835lq9")).toBe("toolu_01A09q90qw90lq917835lq9");
    const long = `call_${"x".repeat(40)}`;
    expect(ids.next(long)).toBe(portableToolCallId(long));
    expect(portableToolCallId(long)).toMatch(/^gh_[0-9a-f]{24}$/);
  });
});
