import type { AssistantMessage } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { malformedArguments, toFinish, toUsage } from "../../../src/model/providers/finish-mapping.ts";

const withCall: AssistantMessage = {
  role: "assistant",
  content: [{ type: "toolCall", id: "A", name: "ls", arguments: {} }],
  stopReason: "stop",
  timestamp: 0,
};
const textOnly: AssistantMessage = { ...withCall, content: [{ type: "text", text: "hi" }] };

describe("toFinish", () => {
  it("maps the SDK's finish reasons to our stop reasons", () => {
    expect(toFinish("tool-calls", withCall, "openai")).toEqual({ stopReason: "toolUse" });
    expect(toFinish("stop", textOnly, "openai")).toEqual({ stopReason: "stop" });
    expect(toFinish("other", textOnly, "openai")).toEqual({ stopReason: "stop" });
    expect(toFinish("content-filter", textOnly, "openai")).toEqual({
      stopReason: "error",
      errorMessage: "openai stopped the response with its content filter.",
    });
    expect(toFinish("error", textOnly, "anthropic").stopReason).toBe("error");
  });

  it("keeps tool calls meaningful: stop with calls is toolUse, length stays length", () => {
    expect(toFinish("stop", withCall, "ollama")).toEqual({ stopReason: "toolUse" });
    expect(toFinish("length", withCall, "openai")).toEqual({ stopReason: "length" });
  });
});

describe("toUsage", () => {
  it("keeps only the counts the provider reported", () => {
    const usage = toUsage({
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
      inputTokenDetails: { noCacheTokens: 8, cacheReadTokens: 2, cacheWriteTokens: undefined },
      outputTokenDetails: { textTokens: 5, reasoningTokens: undefined },
    });
    expect(usage).toEqual({ input: 10, output: 5, cacheRead: 2, totalTokens: 15 });
  });
});

describe("malformedArguments", () => {
  it("explains that nothing ran, and blames the token limit when the response was cut by it", () => {
    expect(malformedArguments([], "tool-calls")).toBeUndefined();
    const message = malformedArguments(["Call A was bad."], "length");
    expect(message).toBe(
      "The model sent malformed tool-call arguments, so no tool call of this message was executed. Call A was bad. The response hit the output token limit while streaming them; raise maxOutputTokens.",
    );
  });
});
