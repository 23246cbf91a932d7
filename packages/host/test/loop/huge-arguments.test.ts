import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, GatehouseEvent, ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "../../src/host/create-host.ts";
import type { Model, ModelStreamEvent } from "../../src/model/types.ts";
import { call, quietLogger, runScenario, say, tempDir } from "../helpers/scenario.ts";

const MiB = 1024 * 1024;

const endOf = (events: GatehouseEvent[]) =>
  events.find((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

/** Counts the bytes of every event as `gatehouse run --json` prints it: when it is emitted. */
function jsonBytes() {
  const meter = { bytes: 0, onEvent: (e: GatehouseEvent) => (meter.bytes += JSON.stringify(e).length + 1) };
  return meter;
}

/** Argument text the updates relayed for the call at `contentIndex`. */
function relayedArgumentText(events: GatehouseEvent[], contentIndex: number): string {
  let text = "";
  for (const e of events) {
    if (e.type !== "message_update") continue;
    const a = e.assistantMessageEvent;
    if (a.type === "toolcall_delta" && a.contentIndex === contentIndex) text += a.delta;
  }
  return text;
}

/** A model that answers once with `message` (start and end only, no deltas), then with text. */
function wholeMessageModel(message: AssistantMessage): Model {
  let turn = 0;
  return {
    id: "whole",
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      const answer: AssistantMessage =
        turn++ === 0
          ? message
          : { role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 0 };
      yield { type: "start", partial: answer };
      yield { type: "end", message: answer };
    },
  };
}

describe("maxArgumentBytes", () => {
  it("a streamed call over the default 1 MiB is invalid, names size and limit, and writes nothing", async () => {
    const cwd = tempDir();
    const content = "x".repeat(MiB);
    const { events, result } = await runScenario({
      cwd,
      turns: [{ content: [call("A", "write", { path: "big.txt", content })] }, say("done")],
    });
    const end = endOf(events);
    const size = JSON.stringify({ path: "big.txt", content }).length;
    expect(end).toMatchObject({ outcome: "invalid", isError: true, args: {} });
    expect(end?.reason).toBe(
      `Invalid arguments for write: they are ${size} bytes (1 MiB), over the maxArgumentBytes limit of 1048576 bytes (1 MiB); the call was not run. Make several smaller calls instead, e.g. write a large file in parts (write the first part, then add the rest with edit).`,
    );
    expect(existsSync(join(cwd, "big.txt"))).toBe(false);
    // The transcript keeps neither the text past the limit nor the arguments of the refused call.
    const assistant = result.messages[1] as AssistantMessage;
    expect(assistant.content[0]).toMatchObject({ type: "toolCall", id: "A", arguments: {} });
    // Argument deltas stop being relayed at the limit.
    expect(relayedArgumentText(events, 0).length).toBeLessThanOrEqual(MiB);
    expect(relayedArgumentText(events, 0).length).toBeGreaterThan(MiB - 64);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const content = "é".repeat(60); // 60 characters, 120 bytes
    const { events } = await runScenario({
      maxArgumentBytes: 100,
      turns: [{ content: [call("A", "write", { path: "a.txt", content })] }, say("done")],
    });
    expect(endOf(events)).toMatchObject({ outcome: "invalid" });
    expect(endOf(events)?.reason).toContain("they are 149 bytes, over the maxArgumentBytes limit of 100 bytes;");
  });

  it("a call within the limit runs, and the other calls of a batch are not affected by a refused one", async () => {
    const cwd = tempDir();
    const { events } = await runScenario({
      cwd,
      maxArgumentBytes: 200,
      turns: [
        {
          content: [
            call("A", "write", { path: "big.txt", content: "y".repeat(300) }),
            call("B", "write", { path: "small.txt", content: "ok" }),
          ],
        },
        say("done"),
      ],
    });
    const ends = events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, e.outcome])).toEqual([
      ["A", "invalid"],
      ["B", "executed"],
    ]);
    expect(readFileSync(join(cwd, "small.txt"), "utf8")).toBe("ok");
  });

  it("also applies to a model that hands over whole calls without streaming them", async () => {
    const message: AssistantMessage = {
      role: "assistant",
      content: [call("A", "write", { path: "a.txt", content: "z".repeat(5000) })],
      stopReason: "toolUse",
      timestamp: 0,
    };
    const events: GatehouseEvent[] = [];
    const host = await createHost({
      cwd: tempDir(),
      model: wholeMessageModel(message),
      maxArgumentBytes: 4096,
      logger: quietLogger,
      onEvent: (e) => events.push(e),
    });
    await host.run("go");
    expect(endOf(events)?.reason).toMatch(/^Invalid arguments for write: they are 5029 bytes \(4\.91 KiB\), over/);
  });

  it("refuses arguments nested too deeply to be serialised, instead of failing later in an event or session", async () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const message: AssistantMessage = {
      role: "assistant",
      content: [call("A", "write", { path: "a.txt", content: "x", extra: deep })],
      stopReason: "toolUse",
      timestamp: 0,
    };
    const events: GatehouseEvent[] = [];
    const host = await createHost({
      cwd: tempDir(),
      model: wholeMessageModel(message),
      logger: quietLogger,
      onEvent: (e) => events.push(e),
    });
    await host.run("go");
    expect(endOf(events)).toMatchObject({ outcome: "invalid" });
    expect(endOf(events)?.reason).toMatch(/^Invalid arguments for write: they cannot be serialised as JSON/);
  });

  it("takes the smallest of the createHost option and every settings level; a level cannot raise it", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const cwd = join(root, "project");
    mkdirSync(home);
    mkdirSync(join(cwd, ".gatehouse"), { recursive: true });
    writeFileSync(join(home, "settings.json"), JSON.stringify({ maxArgumentBytes: 10 * MiB }));
    writeFileSync(join(cwd, ".gatehouse", "settings.json"), JSON.stringify({ maxArgumentBytes: 60 }));
    const run = async (content: string, maxArgumentBytes?: number) => {
      const { events } = await runScenario({
        cwd,
        discover: true,
        env: { GATEHOUSE_HOME: home },
        ...(maxArgumentBytes === undefined ? {} : { maxArgumentBytes }),
        turns: [{ content: [call("A", "write", { path: "a.txt", content })] }, say("done")],
      });
      return endOf(events)?.outcome;
    };
    expect(await run("a".repeat(20))).toBe("executed"); // 47 bytes
    expect(await run("a".repeat(40))).toBe("invalid"); // 67 bytes: the project's 60 wins over the user's 10 MiB
    expect(await run("a".repeat(40), 2 * MiB)).toBe("invalid"); // an option cannot loosen the settings either
    expect(await run("a".repeat(20), 40)).toBe("invalid"); // but can tighten them
  });

  it("rejects a maxArgumentBytes option that is not a positive whole number", async () => {
    await expect(runScenario({ maxArgumentBytes: 0, turns: [] })).rejects.toMatchObject({ code: "GH_USAGE" });
    await expect(runScenario({ maxArgumentBytes: 1.5, turns: [] })).rejects.toThrow(/maxArgumentBytes/);
  });
});

describe("huge arguments cannot stall the host", () => {
  it("a 10 MiB argument is refused in seconds, with events a small multiple of the 1 MiB kept", async () => {
    const started = performance.now();
    const meter = jsonBytes();
    const { events } = await runScenario({
      onEvent: meter.onEvent,
      turns: [{ content: [call("A", "write", { path: "big.txt", content: "x".repeat(10 * MiB) })] }, say("done")],
    });
    const elapsed = performance.now() - started;
    expect(endOf(events)).toMatchObject({ outcome: "invalid" });
    expect(endOf(events)?.reason).toContain(`they are ${10 * MiB + 31} bytes (10 MiB)`);
    // Before: minutes and gigabytes (every delta re-parsed the whole text and carried the whole message).
    expect(meter.bytes).toBeLessThan(12 * MiB);
    expect(elapsed).toBeLessThan(30_000);
  });

  it("with the limit raised, a 4 MiB argument is written whole and its events stay proportional", async () => {
    const cwd = tempDir();
    const content = "0123456789abcdef".repeat((4 * MiB) / 16);
    const meter = jsonBytes();
    const { events } = await runScenario({
      cwd,
      onEvent: meter.onEvent,
      maxArgumentBytes: 8 * MiB,
      turns: [{ content: [call("A", "write", { path: "big.txt", content })] }, say("done")],
    });
    expect(endOf(events)).toMatchObject({ outcome: "executed" });
    expect(readFileSync(join(cwd, "big.txt"), "utf8")).toBe(content);
    // Every delta is relayed, in order, within a number of updates that grows with the log of the size.
    expect(relayedArgumentText(events, 0)).toBe(JSON.stringify({ path: "big.txt", content }));
    expect(events.filter((e) => e.type === "message_update").length).toBeLessThan(200);
    // The contract's own copies (start/end args, message_end, turn_end, agent_end, ...) plus ~4× for the updates.
    expect(meter.bytes).toBeLessThan(16 * 4 * MiB);
  });
});

describe("message_update events of a long answer", () => {
  it("relay every delta in order, the first ones one by one, in few updates whose sizes add up linearly", async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} `).join("");
    const meter = jsonBytes();
    const { events } = await runScenario({ onEvent: meter.onEvent, turns: [say(text)] });
    const deltas = events.flatMap((e) =>
      e.type === "message_update" && e.assistantMessageEvent.type === "text_delta"
        ? [e.assistantMessageEvent.delta]
        : [],
    );
    expect(deltas.join("")).toBe(text);
    expect(deltas.slice(0, 4).map((d) => d.length)).toEqual([16, 16, 16, 16]);
    expect(deltas.length).toBeLessThan(100); // 13,000 deltas of 16 characters were streamed
    expect(meter.bytes).toBeLessThan(12 * text.length);
  });
});
