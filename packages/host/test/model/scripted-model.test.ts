import type { AnyToolDefinition, AssistantMessage, Message } from "@gatehouse/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Script } from "../../src/model/script-schema.ts";
import { createScriptedModel } from "../../src/model/scripted-model.ts";
import type { Model, ModelRequest, ModelStreamEvent } from "../../src/model/types.ts";

const NO_REQUEST: ModelRequest = { messages: [], tools: [] };

async function collect(model: Model, options: { request?: ModelRequest; signal?: AbortSignal } = {}) {
  const events: ModelStreamEvent[] = [];
  const signal = options.signal ?? new AbortController().signal;
  for await (const event of model.stream(options.request ?? NO_REQUEST, signal)) events.push(event);
  return events;
}

function kinds(events: readonly ModelStreamEvent[]): string[] {
  return events.map((e) => (e.type === "delta" ? e.event.type : e.type));
}

function final(events: readonly ModelStreamEvent[]): AssistantMessage {
  const last = events.at(-1);
  if (last?.type !== "end") throw new Error(`the stream did not end with an end event: ${kinds(events).join(",")}`);
  return last.message;
}

function deltas(events: readonly ModelStreamEvent[], type: string): string[] {
  return events.flatMap((e) =>
    e.type === "delta" && e.event.type === type && "delta" in e.event ? [e.event.delta] : [],
  );
}

const MIXED: Script = {
  turns: [
    {
      content: [
        { type: "thinking", thinking: "plan it" },
        { type: "text", text: "Writing the file now." },
        { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "hi" } },
      ],
    },
  ],
};

describe("createScriptedModel", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("streams a mixed turn as start, block deltas in chunks, and end", async () => {
    const model = createScriptedModel(MIXED, { chunkSize: 8, now: () => 1234 });
    expect(model.id).toBe("scripted");
    const events = await collect(model);
    expect(kinds(events)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "end",
    ]);
    expect(deltas(events, "text_delta")).toEqual(["Writing ", "the file", " now."]);
    expect(deltas(events, "toolcall_delta").join("")).toBe('{"path":"a.txt","content":"hi"}');
    expect(final(events)).toEqual({
      role: "assistant",
      content: MIXED.turns[0]?.content,
      stopReason: "toolUse",
      timestamp: 1234,
    });
  });

  it("defaults to 16-character chunks and never splits a surrogate pair", async () => {
    const text = `${"x".repeat(15)}😀${"y".repeat(20)}`;
    const events = await collect(createScriptedModel({ turns: [{ content: [{ type: "text", text }] }] }));
    const pieces = deltas(events, "text_delta");
    expect(pieces).toEqual([`${"x".repeat(15)}😀`, "y".repeat(16), "yyyy"]);
    expect(pieces.join("")).toBe(text);
  });

  it("hands out the same partial message in every event and ends with it", async () => {
    const events = await collect(createScriptedModel(MIXED));
    const first = events[0];
    if (first?.type !== "start") throw new Error("expected start first");
    for (const event of events.slice(1, -1)) expect(event.type === "delta" && event.partial).toBe(first.partial);
    expect(final(events)).toBe(first.partial);
  });

  it("gives the final tool call its own arguments object, not the script's", async () => {
    const message = final(await collect(createScriptedModel(MIXED)));
    const streamed = message.content[2];
    const scripted = MIXED.turns[0]?.content[2];
    if (streamed?.type !== "toolCall" || scripted?.type !== "toolCall") throw new Error("expected tool calls");
    expect(streamed.arguments).toEqual(scripted.arguments);
    expect(streamed.arguments).not.toBe(scripted.arguments);
  });

  it("defaults stopReason to toolUse with tool calls and stop without, and keeps given values", async () => {
    const model = createScriptedModel({
      turns: [
        { content: [{ type: "text", text: "plain" }] },
        { content: [{ type: "toolCall", id: "c", name: "ls", arguments: {} }] },
        { content: [{ type: "text", text: "cut" }], stopReason: "length", usage: { input: 10, output: 3 } },
        { content: [], stopReason: "error", errorMessage: "provider overloaded" },
        { content: [{ type: "toolCall", id: "d", name: "ls", arguments: {} }], stopReason: "stop" },
      ],
    });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(final(await collect(model)));
    expect(results.map((m) => m.stopReason)).toEqual(["stop", "toolUse", "length", "error", "stop"]);
    expect(results[2]?.usage).toEqual({ input: 10, output: 3 });
    expect(results[3]?.errorMessage).toBe("provider overloaded");
    expect(results.filter((m) => "errorMessage" in m)).toHaveLength(1);
  });

  it("answers stop with empty content once the script is exhausted", async () => {
    const model = createScriptedModel({ turns: [{ content: [{ type: "text", text: "only" }] }] }, { now: () => 7 });
    await collect(model);
    for (let i = 0; i < 2; i++) {
      const events = await collect(model);
      expect(kinds(events)).toEqual(["start", "end"]);
      expect(final(events)).toEqual({ role: "assistant", content: [], stopReason: "stop", timestamp: 7 });
    }
  });

  it("waits delayMs before answering", async () => {
    vi.useFakeTimers();
    const model = createScriptedModel({ turns: [{ content: [{ type: "text", text: "late" }], delayMs: 1000 }] });
    const iterator = model.stream(NO_REQUEST, new AbortController().signal)[Symbol.asyncIterator]();
    let settled = false;
    const first = iterator.next().then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await first).value).toMatchObject({ type: "start" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ends with stopReason aborted as soon as the signal aborts during the delay, clearing the timer", async () => {
    vi.useFakeTimers();
    const model = createScriptedModel({ turns: [{ content: [{ type: "text", text: "never" }], delayMs: 600_000 }] });
    const controller = new AbortController();
    const pending = collect(model, { signal: controller.signal });
    await Promise.resolve();
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    const events = await pending;
    expect(vi.getTimerCount()).toBe(0);
    expect(kinds(events)).toEqual(["start", "end"]);
    expect(final(events)).toMatchObject({ stopReason: "aborted", errorMessage: "Request aborted", content: [] });
  }, 2_000);

  it("stops streaming when the signal aborts mid-turn and keeps what was streamed", async () => {
    const model = createScriptedModel(MIXED, { chunkSize: 4 });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    for await (const event of model.stream(NO_REQUEST, controller.signal)) {
      events.push(event);
      if (event.type === "delta" && event.event.type === "text_delta" && event.event.delta === "the ")
        controller.abort();
    }
    expect(kinds(events).slice(-3)).toEqual(["text_delta", "text_delta", "end"]);
    expect(final(events)).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request aborted",
      content: [
        { type: "thinking", thinking: "plan it" },
        { type: "text", text: "Writing the " },
      ],
    });
  });

  it("answers an already aborted request with aborted and consumes its turn", async () => {
    const controller = new AbortController();
    controller.abort();
    const second = { type: "text" as const, text: "second" };
    const model = createScriptedModel({
      turns: [{ content: [{ type: "text", text: "first" }] }, { content: [second] }],
    });
    expect(final(await collect(model, { signal: controller.signal }))).toMatchObject({
      stopReason: "aborted",
      content: [],
    });
    expect(final(await collect(model)).content).toEqual([second]);
  });

  it("records what each request saw without copying the context", async () => {
    const model = createScriptedModel({ turns: [{ content: [] }, { content: [] }] });
    const tool = { name: "read" } as AnyToolDefinition;
    const user: Message = { role: "user", content: "hi", timestamp: 1 };
    const messages: Message[] = [user];
    await collect(model, { request: { messages, tools: [tool, { name: "write" } as AnyToolDefinition] } });
    const reply: Message = { role: "assistant", content: [], stopReason: "stop", timestamp: 2 };
    messages.push(reply);
    await collect(model, { request: { messages, tools: [] } });
    expect(model.requests).toEqual([
      { messageCount: 1, toolNames: ["read", "write"], lastMessage: user },
      { messageCount: 2, toolNames: [], lastMessage: reply },
    ]);
    expect(model.requests[0]?.lastMessage).toBe(user);
    expect(model.requests[1]?.lastMessage).toBe(reply);
  });

  it("rejects a chunk size that is not a positive integer", () => {
    for (const chunkSize of [0, -1, 1.5, Number.NaN]) {
      expect(() => createScriptedModel({ turns: [] }, { chunkSize })).toThrow(
        expect.objectContaining({ code: "GH_USAGE" }),
      );
    }
  });
});
