import type { AssistantMessage, GatehouseEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { assistant, call, end, message, resultMessage, start, text, user } from "./helpers/events.ts";
import { play, type Step } from "./helpers/scenarios.ts";
import { screen } from "./helpers/terminal.ts";
import { partialAssistant, plainView, ttyView, updateOf } from "./helpers/views.ts";

/** Sets the partial call's arguments, as an adapter's partial-JSON parse does, and relays the delta. */
function argsDelta(partial: AssistantMessage, args: Record<string, unknown>, delta: string): GatehouseEvent {
  const block = partial.content[0];
  if (block?.type === "toolCall") block.arguments = args;
  return updateOf(partial, { type: "toolcall_delta", contentIndex: 0, delta });
}

/** Two turns: a write the model streams, then a text answer; each message reports usage. */
function usageRun(): Step[] {
  const args = { path: "a.txt", content: "x" };
  const first = assistant([call("W", "write", args)], { usage: { input: 10_000, output: 700 } });
  const second = assistant([text("Done.")], { usage: { input: 2_400, output: 512, cacheRead: 2_000 } });
  const e = end("W", "write", args, { outcome: "executed", text: "Wrote 1 byte" });
  return [
    { type: "agent_start" },
    { type: "turn_start" },
    ...message(user("go")),
    { advance: 300 },
    ...message(first),
    start("W", "write", args),
    { advance: 100 },
    e,
    ...message(resultMessage(e)),
    { type: "turn_end", message: first, toolResults: [resultMessage(e)] },
    { type: "turn_start" },
    { advance: 400 },
    ...message(second),
    { type: "turn_end", message: second, toolResults: [] },
    { type: "agent_end", messages: [first, second] },
  ];
}

const USAGE_SUMMARY = "done · 2 turns · 1 tool call: 1 ok · 12.4k in / 1.2k out tokens · 0.8s";

describe("live view, TTY mode, the model's status", () => {
  it("shows the model with its elapsed time from turn_start while the request waits", () => {
    const { out, clock, ticker, view } = ttyView();
    view.onEvent({ type: "agent_start" });
    view.onEvent({ type: "turn_start" });
    expect(screen(out.text)).toEqual(["⠋ model 0.0s"]);
    clock.advance(1_200);
    ticker.tick();
    view.onEvent({ type: "message_start", message: partialAssistant() });
    expect(screen(out.text)).toEqual(["⠙ model 1.2s"]);
  });

  it("shows the tool call the model is streaming, its arguments filling in", () => {
    const { out, clock, view } = ttyView();
    const partial = partialAssistant();
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_start", message: partial });
    partial.content.push(call("W", "write", {}));
    view.onEvent(updateOf(partial, { type: "toolcall_start", contentIndex: 0, id: "W", name: "write" }));
    expect(screen(out.text)).toEqual(["⠋ model 0.0s · write…"]);
    view.onEvent(
      argsDelta(partial, { path: "playground/x.txt", content: "" }, '{"path":"playground/x.txt","content":"'),
    );
    expect(screen(out.text)).toEqual(["⠋ model 0.0s · write playground/x.txt (0 chars)…"]);
    clock.advance(300);
    view.onEvent(argsDelta(partial, { path: "playground/x.txt", content: "y".repeat(60) }, "y".repeat(60)));
    view.onEvent(argsDelta(partial, { path: "playground/x.txt", content: "y".repeat(120) }, "y".repeat(60)));
    expect(screen(out.text)).toEqual(["⠋ model 0.3s · write playground/x.txt (120 chars)…"]);
    expect(out.text).not.toContain("yyy");
    const final = call("W", "write", { path: "playground/x.txt", content: "y".repeat(120) });
    view.onEvent(updateOf(partial, { type: "toolcall_end", contentIndex: 0, toolCall: final }));
    expect(screen(out.text)).toEqual(["⠋ model 0.3s"]);
    view.onEvent({ type: "message_end", message: assistant([final]) });
    view.onEvent(start("W", "write", final.arguments));
    expect(screen(out.text)).toEqual(["⠋ write playground/x.txt · 0.0s"]);
  });

  it("runs the ticker only while the model answers or tools run, and never after the run", () => {
    const { out, clock, ticker, view } = ttyView();
    // Timers alive right after the nth event of a type, keyed `type#n`.
    const alive = new Map<string, number>();
    const seen = new Map<string, number>();
    for (const step of usageRun()) {
      play({ view, clock, steps: [step] });
      if (!("type" in step)) continue;
      const n = (seen.get(step.type) ?? 0) + 1;
      seen.set(step.type, n);
      alive.set(`${step.type}#${n}`, ticker.alive().length);
    }
    expect(alive.get("agent_start#1")).toBe(0);
    expect(alive.get("turn_start#1")).toBe(1);
    expect(alive.get("message_update#1")).toBe(1);
    expect(alive.get("tool_execution_start#1")).toBe(1);
    expect(alive.get("tool_execution_end#1")).toBe(0);
    expect(alive.get("turn_start#2")).toBe(1);
    expect(alive.get("turn_end#2")).toBe(0);
    expect(ticker.alive()).toHaveLength(0);
    const written = out.text;
    for (const timer of ticker.timers) timer.callback();
    expect(out.text).toBe(written);
  });

  it("stops the ticker when the model request fails", () => {
    const { ticker, view } = ttyView();
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_start", message: partialAssistant() });
    expect(ticker.alive()).toHaveLength(1);
    view.onEvent({ type: "message_end", message: assistant([], { stopReason: "error", errorMessage: "boom" }) });
    expect(ticker.alive()).toHaveLength(0);
  });
});

describe("token usage in the summary", () => {
  it("sums usage over the run's assistant messages, in TTY mode", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: usageRun() });
    view.close();
    expect(screen(out.text)).toEqual([
      "› go",
      "",
      "✓ write a.txt",
      "  └ Wrote 1 byte",
      "",
      "● Done.",
      "",
      USAGE_SUMMARY,
    ]);
  });

  it("sums usage over the run's assistant messages, in plain mode", () => {
    const { out, clock, view } = plainView();
    play({ view, clock, steps: usageRun() });
    view.close();
    expect(out.lines().at(-1)).toBe(USAGE_SUMMARY);
  });

  it("says nothing about tokens when no message reported usage, and counts them when stopped early", () => {
    const { out, view } = plainView();
    view.onEvent({ type: "agent_start" });
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_end", message: assistant([text("a")]) });
    view.onEvent({ type: "message_end", message: assistant([text("b")], { usage: { input: 950, output: 42 } }) });
    view.close({ exitCode: 130 });
    expect(out.lines().at(-1)).toBe("stopped (exit 130) · 1 turn · no tool calls · 950 in / 42 out tokens · 0.0s");
    const { out: none, view: other } = plainView();
    other.onEvent({ type: "agent_start" });
    other.onEvent({ type: "message_end", message: assistant([text("a")]) });
    other.onEvent({ type: "agent_end", messages: [] });
    expect(none.lines().at(-1)).toBe("done · 0 turns · no tool calls · 0.0s");
  });
});
