import type { Message } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { portableToolCallId } from "../../../src/model/providers/tool-call-ids.ts";
import { type FixtureServer, startFixtureServer } from "./fixture-server.ts";
import { CASES, collect, fileTools, final, fixtureModel } from "./harness.ts";

const anthropic = CASES[1] as (typeof CASES)[1];
const openai = CASES[0] as (typeof CASES)[0];

/** A resumed transcript: one call answered, one orphaned by a crash, then a new prompt. */
function history(): Message[] {
  return [
    { role: "user", content: "Tidy the notes.", timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "two calls" },
        { type: "text", text: "Reading first." },
        { type: "toolCall", id: "call|1", name: "read", arguments: { path: "notes.txt" } },
        { type: "toolCall", id: "orphan.2", name: "write", arguments: { path: "b.txt", content: "x" } },
      ],
      stopReason: "toolUse",
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "call|1",
      toolName: "read",
      content: [{ type: "text", text: "line one" }],
      isError: false,
      timestamp: 3,
    },
    { role: "user", content: "Go on.", timestamp: 4 },
  ];
}

type Json = Record<string, unknown>;

function bodyOf(s: FixtureServer, index: number): Json {
  const body = s.requests[index]?.body;
  if (body === null || typeof body !== "object") throw new Error(`request ${index} has no JSON body`);
  return body as Json;
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("history serialisation on the wire", () => {
  it("anthropic: normalised ids stay paired and an orphaned call gets a synthesized error result", async () => {
    server = await startFixtureServer([{ file: "anthropic-messages/text.sse" }]);
    const messages = history();
    const before = structuredClone(messages);
    const events = await collect(fixtureModel(anthropic, server.baseURL), {
      request: { messages, tools: fileTools() },
    });
    expect(final(events).stopReason).toBe("stop");
    expect(messages).toEqual(before); // the transcript is never rewritten

    const wire = bodyOf(server, 0).messages as Json[];
    expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const assistant = wire[1]?.content as Json[];
    expect(assistant.map((p) => p.type)).toEqual(["text", "tool_use", "tool_use"]); // thinking is omitted
    const [readId, writeId] = [assistant[1]?.id, assistant[2]?.id];
    expect(readId).toBe(portableToolCallId("call|1"));
    expect(writeId).toBe(portableToolCallId("orphan.2"));
    for (const id of [readId, writeId]) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);

    const answers = wire[2]?.content as Json[];
    expect(answers[0]).toMatchObject({ type: "tool_result", tool_use_id: readId, content: "line one" });
    expect(answers[0]?.is_error).not.toBe(true);
    expect(answers[1]).toMatchObject({ type: "tool_result", tool_use_id: writeId, is_error: true });
    expect(String(answers[1]?.content)).toMatch(/^No result was recorded for this tool call/);
    expect(answers[2]).toMatchObject({ type: "text", text: "Go on." });
  });

  it("openai: every function_call has a function_call_output with the same call_id, the orphan's an error", async () => {
    server = await startFixtureServer([{ file: "openai-responses/text.sse" }]);
    const aborted: Message = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_cut", name: "write", arguments: { path: "c.txt" } }],
      stopReason: "aborted",
      errorMessage: "Request aborted",
      timestamp: 5,
    };
    const messages = [...history(), aborted, { role: "user" as const, content: "Again.", timestamp: 6 }];
    await collect(fixtureModel(openai, server.baseURL), { request: { messages, tools: fileTools() } });
    const input = bodyOf(server, 0).input as Json[];
    const calls = input.filter((i) => i.type === "function_call").map((i) => i.call_id);
    const outputs = input.filter((i) => i.type === "function_call_output");
    expect(outputs.map((o) => o.call_id)).toEqual(calls);
    expect(calls).toEqual([portableToolCallId("call|1"), portableToolCallId("orphan.2"), "call_cut"]);
    expect(outputs[0]?.output).toBe("line one");
    expect(outputs[1]?.output).toMatch(/^No result was recorded/);
    expect(outputs[2]?.output).toBe(
      'Not executed: the assistant message ended with stopReason "aborted" (Request aborted), so none of its tool calls ran.',
    );
    // Each output directly follows the calls of its own turn.
    const kinds = input.map((i) => String(i.type ?? i.role));
    expect(kinds).toEqual([
      "user",
      "assistant",
      "function_call",
      "function_call",
      "function_call_output",
      "function_call_output",
      "user",
      "function_call",
      "function_call_output",
      "user",
    ]);
  });
});
