import { defineExtension, defineTool, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, Latches, runScenario, say, stepTool } from "../helpers/scenario.ts";

const ends = (events: { type: string }[]) =>
  events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

/** A tool that aborts the run while executing, then waits until the abort reached it. */
const aborter = (abort: () => void) =>
  defineTool({
    name: "abort_run",
    description: "aborts the run",
    parameters: z.object({}),
    async execute(_args, ctx) {
      abort();
      if (!ctx.signal.aborted) await new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true }));
      throw new Error("stopped by abort");
    },
  });

describe("steering and follow-up", () => {
  it("steering is injected only at the turn boundary, before the next model request", async () => {
    const latches = new Latches();
    const { seq, model } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: (event, host) => {
        if (event.type === "tool_execution_start") host.steer("change of plan");
      },
      turns: [{ content: [call("A", "step", { label: "A" })] }, say("ok")],
    });
    const turnEnd = seq.indexOf("turn_end([A])");
    expect(seq.slice(turnEnd, turnEnd + 5)).toEqual([
      "turn_end([A])",
      "turn_start",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
    ]);
    expect(model.requests[1]?.lastMessage).toMatchObject({ role: "user", content: "change of plan" });
  });

  it("follow-up waits until the agent would otherwise stop", async () => {
    const latches = new Latches();
    const { seq, model } = await runScenario({
      tools: [stepTool(latches)],
      onEvent: (event, host) => {
        if (event.type === "tool_execution_start") host.followUp("one more thing");
      },
      turns: [{ content: [call("A", "step", { label: "A" })] }, say("first answer"), say("second answer")],
    });
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]?.lastMessage).toMatchObject({ role: "toolResult" });
    expect(model.requests[2]?.lastMessage).toMatchObject({ role: "user", content: "one more thing" });
    expect(seq.slice(-8)).toEqual([
      "turn_end([])",
      "turn_start",
      "message_start(user)",
      "message_end(user)",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end([])",
      "agent_end(6)",
    ]);
  });
});

describe("abort is honoured by the loop", () => {
  it("sequential: after abort no further call starts and no new model turn begins", async () => {
    const latches = new Latches();
    let abort = () => {};
    const { seq, events, model, result } = await runScenario({
      tools: [stepTool(latches), aborter(() => abort())],
      toolExecution: "sequential",
      onEvent: (_event, host) => {
        abort = () => host.abort();
      },
      turns: [{ content: [call("A", "abort_run"), call("B", "step", { label: "B" })] }, say("never")],
    });
    expect(seq).not.toContain("tool_execution_start(B)");
    expect(model.requests).toHaveLength(1);
    expect(ends(events)).toMatchObject([{ toolCallId: "A", outcome: "aborted" }]);
    expect(result.aborted).toBe(true);
    // Every call of the assistant message still has a result, so the transcript stays paired.
    const results = result.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ["A", true],
      ["B", true],
    ]);
    expect(seq.slice(-2)).toEqual(["turn_end([A,B])", "agent_end(4)"]);
  });

  it("parallel: an abort during preflight stops later starts; prepared calls do not execute", async () => {
    let executed = 0;
    const tool = defineTool({
      name: "count",
      description: "counts",
      parameters: z.object({ n: z.number() }),
      execute: () => {
        executed++;
        return { content: [] };
      },
    });
    const abortOnB = defineExtension({
      name: "abort-on-b",
      setup: (api) => api.on("tool_call", (e) => void (e.input.n === 2 ? stop() : undefined)),
    });
    let stop = () => {};
    const { seq, events, model } = await runScenario({
      tools: [tool],
      extensions: [abortOnB],
      onEvent: (_e, host) => {
        stop = () => host.abort();
      },
      turns: [{ content: [call("A", "count", { n: 1 }), call("B", "count", { n: 2 }), call("C", "count", { n: 3 })] }],
    });
    expect(seq).toContain("tool_execution_start(B)");
    expect(seq).not.toContain("tool_execution_start(C)");
    expect(executed).toBe(0);
    expect(ends(events).map((e) => [e.toolCallId, e.outcome])).toEqual([
      ["A", "aborted"],
      ["B", "aborted"],
    ]);
    expect(model.requests).toHaveLength(1);
    expect(seq.at(-2)).toBe("turn_end([A,B,C])");
  });

  it("abort while the model is answering ends the run with stopReason aborted and executes nothing", async () => {
    const { result, seq, model } = await runScenario({
      onEvent: (event, host) => {
        if (event.type === "turn_start") host.abort();
      },
      turns: [{ content: [call("A", "write", { path: "x", content: "y" })], delayMs: 60_000 }],
    });
    expect(result).toMatchObject({ aborted: true, stopReason: "aborted" });
    expect(seq).not.toContain("tool_execution_start(A)");
    expect(model.requests).toHaveLength(1);
  });
});

describe("tool set changes apply at the next turn boundary", () => {
  it("a tool registered mid-turn is unknown to that turn's calls and available to the next", async () => {
    let register: (() => void) | undefined;
    const late = defineTool({
      name: "late",
      description: "registered during the run",
      parameters: z.object({}),
      execute: () => ({ content: [{ type: "text", text: "late ok" }] }),
    });
    const ext = defineExtension({
      name: "registers-late",
      setup(api) {
        register = () => api.registerTool(late);
        api.on("tool_execution_start", (e) => {
          if (e.toolCallId === "A") register?.();
        });
      },
    });
    const latches = new Latches();
    const { events, model } = await runScenario({
      tools: [stepTool(latches)],
      extensions: [ext],
      turns: [
        { content: [call("A", "step", { label: "A" }), call("B", "late")] },
        { content: [call("C", "late")] },
        say("done"),
      ],
    });
    expect(ends(events).map((e) => [e.toolCallId, e.outcome])).toEqual([
      ["B", "unknown"],
      ["A", "executed"],
      ["C", "executed"],
    ]);
    expect(model.requests[0]?.toolNames).not.toContain("late");
    expect(model.requests[1]?.toolNames).toContain("late");
  });
});

describe("maxTurns and the system prompt", () => {
  it("maxTurns ends a run that would go on, after that many turns, and says so", async () => {
    const latches = new Latches();
    const { seq, result, model } = await runScenario({
      tools: [stepTool(latches)],
      maxTurns: 2,
      turns: [
        { content: [call("A", "step", { label: "A" })] },
        { content: [call("B", "step", { label: "B" })] },
        say("never"),
      ],
    });
    expect(model.requests).toHaveLength(2);
    expect(seq.slice(-2)).toEqual(["turn_end([B])", "agent_end(5)"]);
    expect(result.maxTurnsReached).toBe(true);
  });

  it("a run that ends by itself on its last allowed turn is not flagged", async () => {
    const { result } = await runScenario({ maxTurns: 1, turns: [say("hi")] });
    expect(result.maxTurnsReached).toBeUndefined();
  });

  it("the default system prompt lists the turn's tools and follows tool-set changes", async () => {
    const seen: (string | undefined)[] = [];
    const { createHost } = await import("../../src/host/create-host.ts");
    const { quietLogger, tempDir } = await import("../helpers/scenario.ts");
    const late = defineTool({
      name: "late",
      description: "Arrives later. More text.",
      parameters: z.object({}),
      execute: () => ({ content: [] }),
    });
    let register = () => {};
    const ext = defineExtension({
      name: "adds",
      setup(api) {
        register = () => api.registerTool(late);
      },
    });
    const host = await createHost({
      cwd: tempDir(),
      logger: quietLogger,
      extensions: [ext],
      model: {
        id: "spy",
        async *stream(request) {
          seen.push(request.systemPrompt);
          register();
          const message = { role: "assistant" as const, content: [], stopReason: "stop" as const, timestamp: 0 };
          yield { type: "end" as const, message };
        },
      },
    });
    await host.run("one");
    await host.run("two");
    expect(seen[0]).toContain("- read: ");
    expect(seen[0]).not.toContain("- late:");
    expect(seen[1]).toContain("- late: Arrives later.");
  });
});
