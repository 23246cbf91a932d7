import { defineExtension, defineTool, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, Latches, runScenario, say, stepTool } from "../helpers/scenario.ts";

const ends = (events: { type: string }[]) =>
  events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

/** A tool that only counts how often it ran. */
function countingTool() {
  let count = 0;
  const tool = defineTool({
    name: "count",
    description: "counts",
    parameters: z.object({}),
    execute: () => {
      count++;
      return { content: [] };
    },
  });
  return { tool, runs: () => count };
}

describe("preflight failures become immediate error results", () => {
  it("invalid arguments: the result names every wrong field in words a model can act on", async () => {
    const latches = new Latches();
    const { result, events } = await runScenario({
      tools: [stepTool(latches)],
      turns: [{ content: [call("A", "step", { label: 7, updates: "x" })] }, say("done")],
    });
    const text = (result.messages[2] as { content: { text: string }[] }).content[0]?.text ?? "";
    expect(text).toMatch(/^Invalid arguments for step: /);
    expect(text).toContain("label: expected string, received number");
    expect(text).toContain("updates: expected number, received string");
    expect(ends(events)[0]).toMatchObject({ outcome: "invalid", isError: true, args: { label: 7, updates: "x" } });
  });

  it("a missing field is called required, not wrong", async () => {
    const { result } = await runScenario({
      turns: [{ content: [call("A", "write", { path: "a.txt" })] }, say("done")],
    });
    const text = (result.messages[2] as { content: { text: string }[] }).content[0]?.text ?? "";
    expect(text).toBe("Invalid arguments for write: content: required (expected string)");
  });

  it("unknown tool: the result lists the tools that exist", async () => {
    const { result } = await runScenario({ turns: [{ content: [call("A", "wrtie", { path: "x" })] }, say("done")] });
    const text = (result.messages[2] as { content: { text: string }[] }).content[0]?.text ?? "";
    expect(text).toContain('Tool "wrtie" not found');
    expect(text).toContain("write");
  });

  it("prepareArguments runs before validation and can repair legacy argument names", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "legacy",
      description: "accepts file_path as an alias of path",
      parameters: z.object({ path: z.string() }),
      prepareArguments: (raw) => ("file_path" in raw ? { path: raw.file_path } : raw),
      execute: (args) => {
        seen.push(args);
        return { content: [{ type: "text", text: "ok" }] };
      },
    });
    await runScenario({
      tools: [tool],
      turns: [{ content: [call("A", "legacy", { file_path: "a.txt" })] }, say("done")],
    });
    expect(seen).toEqual([{ path: "a.txt" }]);
  });

  it("duplicate tool-call ids: the duplicate is an error result and the tool runs once", async () => {
    let runs = 0;
    const tool = defineTool({
      name: "count",
      description: "counts",
      parameters: z.object({}),
      execute: () => {
        runs++;
        return { content: [{ type: "text", text: "counted" }] };
      },
    });
    const { result, events } = await runScenario({
      tools: [tool],
      turns: [{ content: [call("A", "count"), call("A", "count")] }, say("done")],
    });
    expect(runs).toBe(1);
    const results = result.messages.filter((m) => m.role === "toolResult");
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    expect(ends(events).map((e) => e.outcome)).toEqual(["invalid", "executed"]);
  });

  it("an assistant message with stopReason error executes nothing and ends the run", async () => {
    const { tool, runs } = countingTool();
    const { seq, result } = await runScenario({
      tools: [tool],
      turns: [{ content: [call("A", "count")], stopReason: "error", errorMessage: "provider exploded" }, say("never")],
    });
    expect(runs()).toBe(0);
    expect(seq.slice(-2)).toEqual(["turn_end([])", "agent_end(2)"]);
    expect(result).toMatchObject({ stopReason: "error", errorMessage: "provider exploded" });
  });

  it("execution follows content, not stopReason: tool calls under stopReason stop still run", async () => {
    const { tool, runs } = countingTool();
    await runScenario({ tools: [tool], turns: [{ content: [call("A", "count")], stopReason: "stop" }, say("done")] });
    expect(runs()).toBe(1);
  });

  it("a tool returning a malformed result becomes a failed call, not a crash", async () => {
    const tool = defineTool({
      name: "broken",
      description: "returns garbage",
      parameters: z.object({}),
      execute: () => "nope" as never,
    });
    const { events } = await runScenario({ tools: [tool], turns: [{ content: [call("A", "broken")] }, say("done")] });
    expect(ends(events)[0]).toMatchObject({ outcome: "failed", isError: true });
  });

  it("blocked calls carry the arguments that were requested and never execute", async () => {
    let runs = 0;
    const tool = defineTool({
      name: "count",
      description: "counts",
      parameters: z.object({ n: z.number() }),
      execute: () => {
        runs++;
        return { content: [] };
      },
    });
    const deny = defineExtension({
      name: "deny-all",
      setup: (api) => api.on("tool_call", () => ({ block: true, reason: "no" }), { stage: "enforce" }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [deny],
      turns: [{ content: [call("A", "count", { n: 1 })] }, say("done")],
    });
    expect(runs).toBe(0);
    expect(ends(events)[0]).toMatchObject({ outcome: "blocked", blockedBy: "deny-all", reason: "no", args: { n: 1 } });
  });
});
