import { describe, expect, it } from "vitest";
import { AssistantStreamBuilder } from "../../src/model/assistant-stream-builder.ts";
import type { ModelStreamEvent } from "../../src/model/types.ts";

function kind(event: ModelStreamEvent): string {
  return event.type === "delta" ? event.event.type : event.type;
}

describe("AssistantStreamBuilder", () => {
  it("turns steps into the event sequence of a mixed message", () => {
    const b = new AssistantStreamBuilder({ now: () => 42 });
    const events = [
      b.start(),
      b.thinkingStart(),
      b.thinkingDelta("let me "),
      b.thinkingDelta("see"),
      b.thinkingEnd(),
      b.textStart(),
      b.textDelta("Hel"),
      b.textDelta("lo"),
      b.textEnd(),
      b.toolCallStart("A", "write"),
      b.toolCallDelta('{"path":'),
      b.toolCallDelta('"a.txt"}'),
      b.toolCallEnd(),
      b.finish("toolUse", { usage: { input: 1, output: 2 } }),
    ];
    expect(events.map(kind)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "end",
    ]);
    const deltas = events.flatMap((e) => (e.type === "delta" ? [e.event] : []));
    expect(deltas.map((e) => e.contentIndex)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    expect(deltas[3]).toEqual({ type: "thinking_end", contentIndex: 0, content: "let me see" });
    expect(deltas[7]).toEqual({ type: "text_end", contentIndex: 1, content: "Hello" });
    expect(deltas[8]).toEqual({ type: "toolcall_start", contentIndex: 2, id: "A", name: "write" });
    expect(deltas[9]).toEqual({ type: "toolcall_delta", contentIndex: 2, delta: '{"path":' });
    expect(deltas[11]).toEqual({
      type: "toolcall_end",
      contentIndex: 2,
      toolCall: { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt" } },
    });
    expect(events.at(-1)).toEqual({
      type: "end",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "let me see" },
          { type: "text", text: "Hello" },
          { type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt" } },
        ],
        stopReason: "toolUse",
        usage: { input: 1, output: 2 },
        timestamp: 42,
      },
    });
    expect(b.argumentErrors).toEqual([]);
  });

  it("mutates one partial message in place, which becomes the final message", () => {
    const b = new AssistantStreamBuilder();
    const start = b.start();
    if (start.type !== "start") throw new Error("unreachable");
    const partial = start.partial;
    const delta = b.textStart();
    expect(delta.partial).toBe(partial);
    const block = partial.content[0];
    b.textDelta("ab");
    expect(partial.content).toEqual([{ type: "text", text: "ab" }]);
    expect(partial.content[0]).toBe(block);
    expect(b.textEnd().partial).toBe(partial);
    const end = b.finish("stop");
    expect(end.message).toBe(partial);
    expect(b.message).toBe(partial);
  });

  it("updates tool-call arguments from the partial JSON on every delta", () => {
    const b = new AssistantStreamBuilder();
    b.start();
    b.toolCallStart("c1", "edit");
    const seen = [
      '{"pa',
      '{"path": "x',
      '{"path": "x.ts", "edits": [{"oldText": "a"',
      '{"path": "x.ts", "edits": [{"oldText": "a"}]}',
    ];
    const expected = [
      {},
      { path: "x" },
      { path: "x.ts", edits: [{ oldText: "a" }] },
      { path: "x.ts", edits: [{ oldText: "a" }] },
    ];
    let sent = "";
    seen.forEach((full, i) => {
      const event = b.toolCallDelta(full.slice(sent.length));
      sent = full;
      expect(event.partial.content[0]).toMatchObject({ arguments: expected[i] });
    });
    const end = b.toolCallEnd();
    expect(end.event).toMatchObject({ toolCall: { arguments: { path: "x.ts", edits: [{ oldText: "a" }] } } });
  });

  it("gives {} and records an error note when the final arguments are not valid JSON", () => {
    const b = new AssistantStreamBuilder();
    b.start();
    b.toolCallStart("c1", "write");
    b.toolCallDelta('{"path": "a.txt", "content": "unterminated');
    const end = b.toolCallEnd();
    expect(end.event).toMatchObject({ type: "toolcall_end", toolCall: { id: "c1", arguments: {} } });
    expect(b.argumentErrors).toHaveLength(1);
    expect(b.argumentErrors[0]).toMatchObject({ contentIndex: 0, toolCallId: "c1", toolName: "write" });
    expect(b.argumentErrors[0]?.message).toMatch(
      /^The arguments of tool call c1 \(write\) were dropped: it is not valid JSON/,
    );
  });

  it("records a note for arguments that are JSON but not an object, and accepts empty arguments as {}", () => {
    const b = new AssistantStreamBuilder();
    b.start();
    b.toolCallStart("c1", "ls");
    b.toolCallDelta("[1, 2]");
    b.toolCallEnd();
    b.toolCallStart("c2", "ls");
    const end = b.toolCallEnd();
    expect(end.partial.content).toMatchObject([{ arguments: {} }, { arguments: {} }]);
    expect(b.argumentErrors.map((e) => e.toolCallId)).toEqual(["c1"]);
    expect(b.argumentErrors[0]?.message).toContain("it is not a JSON object");
  });

  it("sets stopReason and errorMessage on finish and keeps open blocks as streamed", () => {
    const b = new AssistantStreamBuilder();
    b.start();
    b.textStart();
    b.textDelta("partial answ");
    const end = b.finish("aborted", { errorMessage: "Request aborted" });
    expect(end.message).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request aborted",
      content: [{ type: "text", text: "partial answ" }],
    });
    expect("usage" in end.message).toBe(false);
  });

  it("treats steps out of order as programmer errors", () => {
    const b = new AssistantStreamBuilder();
    b.start();
    expect(() => b.textDelta("x")).toThrow(expect.objectContaining({ code: "GH_INTERNAL" }));
    b.textStart();
    expect(() => b.toolCallStart("a", "b")).toThrow(/cannot start a toolCall block while a text block is open/);
    expect(() => b.thinkingEnd()).toThrow(/no thinking block is open/);
    b.finish("stop");
    expect(() => b.finish("stop")).toThrow(/already finished/);
  });

  it("past maxArgumentBytes stops keeping and parsing argument text, and lists the call as oversized", () => {
    const b = new AssistantStreamBuilder({ maxArgumentBytes: 20 });
    b.start();
    b.toolCallStart("c1", "write");
    b.toolCallDelta('{"path": "a.txt", ');
    expect(b.message.content[0]).toMatchObject({ arguments: { path: "a.txt" } });
    // "é" is 2 bytes in UTF-8: 18 + 2 + 1 = 21 bytes, one over the limit.
    const over = b.toolCallDelta('"é');
    expect(over.event).toEqual({ type: "toolcall_delta", contentIndex: 0, delta: '"é' });
    expect(b.message.content[0]).toMatchObject({ arguments: {} });
    b.toolCallDelta('": "x"}');
    const end = b.toolCallEnd();
    expect(end.event).toMatchObject({ type: "toolcall_end", toolCall: { id: "c1", arguments: {} } });
    expect(b.oversizedArguments).toEqual([{ contentIndex: 0, toolCallId: "c1", toolName: "write", bytes: 28 }]);
    // Too large is not malformed: providers must not turn it into a failed message.
    expect(b.argumentErrors).toEqual([]);
  });

  it("keeps arguments of exactly maxArgumentBytes", () => {
    const b = new AssistantStreamBuilder({ maxArgumentBytes: 12 });
    b.start();
    b.toolCallStart("c1", "t");
    b.toolCallDelta('{"a": "xyz"}');
    expect(b.toolCallEnd().event).toMatchObject({ toolCall: { arguments: { a: "xyz" } } });
    expect(b.oversizedArguments).toEqual([]);
  });
});
