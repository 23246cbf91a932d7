import { defineExtension } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { call, closing, end, Latches, msg, OPENING, runScenario, say, start, stepTool } from "../helpers/scenario.ts";

// The reference sequences S1–S8 of SPEC §4.2, asserted exactly, toolCallIds included.
// "A slower" is arranged with latches: A waits until B has ended. No timers decide the order.

const step = (id: string, args: Record<string, unknown>) => call(id, "step", { label: id, ...args });

function openOnEnd(latches: Latches, whenEnded: string, latchName: string) {
  return (event: { type: string; toolCallId?: string }) => {
    if (event.type === "tool_execution_end" && event.toolCallId === whenEnded) latches.get(latchName).open();
  };
}

describe("reference sequences of SPEC §4.2", () => {
  it("S1 sequential: each call is finalized, result message included, before the next starts", async () => {
    const latches = new Latches();
    const { seq } = await runScenario({
      tools: [stepTool(latches)],
      toolExecution: "sequential",
      turns: [{ content: [step("A", {}), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      end("A"),
      ...msg("A"),
      start("B"),
      end("B"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
  });

  it("S2 parallel, A slower: ends follow completion order, result messages follow source order", async () => {
    const latches = new Latches();
    const { seq, result } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: openOnEnd(latches, "B", "b-done"),
      turns: [{ content: [step("A", { waitFor: "b-done" }), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      start("B"),
      end("B"),
      end("A"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    const results = result.messages.filter((m) => m.role === "toolResult").map((m) => m.toolCallId);
    expect(results).toEqual(["A", "B"]);
  });

  it("S3 parallel, A invalid: A ends with an error before B starts, results stay in source order", async () => {
    const latches = new Latches();
    const { seq, events } = await runScenario({
      tools: [stepTool(latches)],
      turns: [{ content: [call("A", "step", { label: 7 }), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      end("A", true),
      start("B"),
      end("B"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    const endA = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "A");
    expect(endA).toMatchObject({ outcome: "invalid" });
  });

  it("S4 parallel, A blocked: same shape as S3, the end names the blocking extension", async () => {
    const latches = new Latches();
    const guard = defineExtension({
      name: "guard",
      setup(api) {
        api.on("tool_call", (e) => (e.input.label === "A" ? { block: true, reason: "A is denied" } : undefined), {
          stage: "enforce",
        });
      },
    });
    const { seq, events } = await runScenario({
      tools: [stepTool(latches)],
      extensions: [guard],
      turns: [{ content: [step("A", {}), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      end("A", true),
      start("B"),
      end("B"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    const endA = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "A");
    expect(endA).toMatchObject({ outcome: "blocked", blockedBy: "guard", reason: "A is denied" });
  });

  it("S5 parallel, A unknown: same shape as S3", async () => {
    const latches = new Latches();
    const { seq, events } = await runScenario({
      tools: [stepTool(latches)],
      turns: [{ content: [call("A", "no_such_tool"), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      end("A", true),
      start("B"),
      end("B"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    const endA = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "A");
    expect(endA).toMatchObject({ outcome: "unknown" });
  });

  it("S6 parallel, A throws: same shape as S2, end A is an error", async () => {
    const latches = new Latches();
    const { seq, events } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: openOnEnd(latches, "B", "b-done"),
      turns: [{ content: [step("A", { waitFor: "b-done", fail: true }), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      start("B"),
      end("B"),
      end("A", true),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    const endA = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "A");
    expect(endA).toMatchObject({ outcome: "failed", isError: true });
  });

  it("S7 all results terminate: turn_end then agent_end, no further model turn", async () => {
    const latches = new Latches();
    const { seq } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: openOnEnd(latches, "B", "b-done"),
      turns: [
        { content: [step("A", { waitFor: "b-done", terminate: true }), step("B", { terminate: true })] },
        say("done"),
      ],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      start("B"),
      end("B"),
      end("A"),
      ...msg("A"),
      ...msg("B"),
      "turn_end([A,B])",
      "agent_end(4)",
    ]);
  });

  it("S7 only one terminates: the loop goes on", async () => {
    const latches = new Latches();
    const { seq } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: openOnEnd(latches, "B", "b-done"),
      turns: [{ content: [step("A", { waitFor: "b-done", terminate: true }), step("B", {})] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      start("B"),
      end("B"),
      end("A"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
  });

  it("S8 A sends two updates: updates precede B's end, and are never transcript messages", async () => {
    const latches = new Latches();
    const { seq, result } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: (event) => {
        if (event.type === "tool_execution_update") {
          // B may finish only after both of A's updates were seen; A only after B ended.
          if (event.toolCallId === "A" && (event.partialResult.content[0] as { text: string }).text === "progress 1") {
            latches.get("a-updated").open();
          }
        }
        openOnEnd(latches, "B", "b-done")(event);
      },
      turns: [
        { content: [step("A", { updates: 2, waitFor: "b-done" }), step("B", { waitFor: "a-updated" })] },
        say("done"),
      ],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      start("B"),
      "tool_execution_update(A)",
      "tool_execution_update(A)",
      end("B"),
      end("A"),
      ...msg("A"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
  });
});

describe("per-tool execution mode", () => {
  it("one sequential-only tool makes the whole batch sequential", async () => {
    const latches = new Latches();
    const slow = { ...stepTool(latches), name: "serial", executionMode: "sequential" as const };
    const { seq } = await runScenario({
      tools: [stepTool(latches), slow],
      turns: [{ content: [call("A", "step", { label: "A" }), call("B", "serial", { label: "B" })] }, say("done")],
    });
    expect(seq).toEqual([
      ...OPENING,
      start("A"),
      end("A"),
      ...msg("A"),
      start("B"),
      end("B"),
      ...msg("B"),
      ...closing("A,B", 5),
    ]);
  });
});

describe("message_update", () => {
  it("streams the assistant message between its start and end, carrying the streaming kinds", async () => {
    const latches = new Latches();
    const { events } = await runScenario({
      tools: [stepTool(latches)],
      turns: [{ content: [{ type: "text", text: "working on it" }, step("A", {})] }, say("done")],
    });
    const first = events.findIndex((e) => e.type === "message_start" && e.message.role === "assistant");
    const last = events.findIndex((e) => e.type === "message_end" && e.message.role === "assistant");
    const kinds = events
      .slice(first, last)
      .filter((e) => e.type === "message_update")
      .map((e) => (e.type === "message_update" ? e.assistantMessageEvent.type : ""));
    expect(kinds[0]).toBe("text_start");
    expect(kinds).toContain("text_delta");
    expect(kinds).toContain("toolcall_delta");
    expect(kinds.at(-1)).toBe("toolcall_end");
  });
});
