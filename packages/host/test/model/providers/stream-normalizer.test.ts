import { describe, expect, it } from "vitest";
import { AssistantStreamBuilder } from "../../../src/model/assistant-stream-builder.ts";
import { StreamNormalizer, type StreamPart } from "../../../src/model/providers/stream-normalizer.ts";

function run(parts: Record<string, unknown>[]) {
  const builder = new AssistantStreamBuilder({ now: () => 0 });
  const normalizer = new StreamNormalizer(builder);
  const events = [...parts.flatMap((p) => normalizer.push(p as StreamPart)), ...normalizer.close()];
  const steps = events.map((e) => {
    const ev = e.event;
    if (ev.type === "text_delta" || ev.type === "thinking_delta" || ev.type === "toolcall_delta") {
      return `${ev.type}:${ev.delta}`;
    }
    return ev.type === "toolcall_start" ? `toolcall_start:${ev.id}` : ev.type;
  });
  return { steps, message: builder.message, builder, normalizer };
}

const text = (id: string, t: string) => ({ type: "text-delta", id, text: t });
const toolStart = (id: string, toolName: string) => ({ type: "tool-input-start", id, toolName });
const toolDelta = (id: string, delta: string) => ({ type: "tool-input-delta", id, delta });
const toolEnd = (id: string) => ({ type: "tool-input-end", id });

describe("StreamNormalizer", () => {
  it("closes text left open when a tool call starts, as Chat Completions streams do", () => {
    const { steps, message } = run([
      { type: "text-start", id: "txt-0" },
      text("txt-0", "Reading."),
      toolStart("A", "read"),
      toolDelta("A", '{"path":"a"}'),
      toolStart("B", "read"),
      toolDelta("B", '{"path":"b"}'),
      { type: "text-end", id: "txt-0" },
      toolEnd("A"),
      toolEnd("B"),
    ]);
    expect(steps).toEqual([
      "text_start",
      "text_delta:Reading.",
      "text_end",
      "toolcall_start:A",
      'toolcall_delta:{"path":"a"}',
      "toolcall_end",
      "toolcall_start:B",
      'toolcall_delta:{"path":"b"}',
      "toolcall_end",
    ]);
    expect(message.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "A", name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: "B", name: "read", arguments: { path: "b" } },
    ]);
  });

  it("buffers a block that starts while an incomplete tool call streams, and replays it after that call", () => {
    const { steps, message } = run([
      toolStart("A", "write"),
      toolDelta("A", '{"path":'),
      toolStart("B", "read"),
      toolDelta("B", '{"path":"b"}'),
      text("t", "aside"),
      toolDelta("A", '"a"}'),
      toolEnd("A"),
      toolEnd("B"),
    ]);
    expect(steps).toEqual([
      "toolcall_start:A",
      'toolcall_delta:{"path":',
      'toolcall_delta:"a"}',
      "toolcall_end",
      "toolcall_start:B",
      'toolcall_delta:{"path":"b"}',
      "toolcall_end",
      "text_start",
      "text_delta:aside",
      "text_end",
    ]);
    expect(message.content.map((b) => (b.type === "toolCall" ? b.arguments : b))).toEqual([
      { path: "a" },
      { path: "b" },
      { type: "text", text: "aside" },
    ]);
  });

  it("adds a tool call that arrives whole, and ignores the whole form of a streamed one", () => {
    const { message, steps } = run([
      toolStart("A", "read"),
      toolDelta("A", '{"path":"a"}'),
      toolEnd("A"),
      { type: "tool-call", toolCallId: "A", toolName: "read", input: { path: "DIFFERENT" } },
      { type: "tool-call", toolCallId: "W", toolName: "ls", input: { path: "." } },
    ]);
    expect(message.content).toEqual([
      { type: "toolCall", id: "A", name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: "W", name: "ls", arguments: { path: "." } },
    ]);
    expect(steps.filter((s) => s.startsWith("toolcall_start"))).toEqual(["toolcall_start:A", "toolcall_start:W"]);
  });

  it("records argument text that arrives after a call was closed as complete", () => {
    const { normalizer } = run([
      toolStart("A", "read"),
      toolDelta("A", '{"path":"a"}'),
      toolStart("B", "read"),
      toolDelta("A", "oops"),
      toolEnd("B"),
    ]);
    expect(normalizer.problems).toEqual([
      "Tool call A (read) received more argument text after its arguments were complete.",
    ]);
  });

  it("ignores empty deltas (Anthropic's signature delta) and reopens interrupted thinking as a new block", () => {
    const { message } = run([
      { type: "reasoning-delta", id: "r", text: "" },
      { type: "reasoning-delta", id: "r", text: "think" },
      text("t", "say"),
      { type: "reasoning-delta", id: "r", text: "more" },
      { type: "reasoning-end", id: "r" },
    ]);
    expect(message.content).toEqual([
      { type: "thinking", thinking: "think" },
      { type: "text", text: "say" },
      { type: "thinking", thinking: "more" },
    ]);
  });

  it("ignores provider-executed tool input, which Gatehouse neither shows nor runs", () => {
    const { message } = run([
      { type: "tool-input-start", id: "srv", toolName: "web_search", providerExecuted: true },
      toolDelta("srv", '{"q":"x"}'),
      toolEnd("srv"),
      { type: "tool-call", toolCallId: "srv", toolName: "web_search", input: "{}", providerExecuted: true },
      text("t", "done"),
    ]);
    expect(message.content).toEqual([{ type: "text", text: "done" }]);
  });

  it("reports content only once something streamed", () => {
    const builder = new AssistantStreamBuilder();
    const normalizer = new StreamNormalizer(builder);
    normalizer.push({ type: "start" } as StreamPart);
    normalizer.push({ type: "text-start", id: "x" } as StreamPart);
    expect(normalizer.hasContent).toBe(false);
    normalizer.push(text("x", "a") as StreamPart);
    expect(normalizer.hasContent).toBe(true);
  });
});
