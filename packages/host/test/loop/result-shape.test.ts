import { defineExtension, defineTool, type GatehouseEvent, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runScenario, say } from "../helpers/scenario.ts";

const ends = (events: GatehouseEvent[]) =>
  new Map(
    events
      .filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end")
      .map((e) => [e.toolCallId, e] as const),
  );
const textOf = (end: ToolExecutionEndEvent | undefined) =>
  end?.result.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";

/** A tool named `name` whose execute returns (or throws) what `make` says, typed as anything. */
const returning = (name: string, make: () => unknown) =>
  defineTool({
    name,
    description: name,
    parameters: z.object({}),
    effects: () => [],
    execute: async () => make() as never,
  });

describe("what a tool or a tool_result handler hands back must be a result (SPEC §2: JSON-serialisable messages)", () => {
  it("a result with a cycle, a BigInt or a block that is neither text nor image is an error naming the tool; the run goes on and every event stays JSON", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const tools = [
      returning("cycle", () => ({ content: [{ type: "text", text: "c" }], details: cyclic })),
      returning("bigint", () => ({ content: [{ type: "text", text: "b" }], details: { n: 10n } })),
      returning("video", () => ({ content: [{ type: "video" }] })),
      returning("nothing", () => {
        throw undefined;
      }),
      returning("fine", () => ({ content: [{ type: "text", text: "ok" }] })),
    ];
    const names = tools.map((t) => t.name);
    const { events, result } = await runScenario({
      tools,
      turns: [{ content: names.map((n) => call(n, n)) }, say("done")],
    });
    const byId = ends(events);
    expect(textOf(byId.get("cycle"))).toMatch(/^Tool cycle returned an invalid result: it cannot be written as JSON/);
    expect(textOf(byId.get("bigint"))).toMatch(/^Tool bigint returned an invalid result: it cannot be written as JSON/);
    expect(textOf(byId.get("video"))).toBe(
      'Tool video returned an invalid result: content[0] must be { type: "text", text } or { type: "image", data, mimeType }.',
    );
    expect(textOf(byId.get("nothing"))).toBe("Tool nothing failed: it threw undefined instead of an Error.");
    for (const n of ["cycle", "bigint", "video", "nothing"])
      expect(byId.get(n)).toMatchObject({ outcome: "failed", isError: true });
    expect(byId.get("fine")).toMatchObject({ outcome: "executed", isError: false });
    expect(result.stopReason).toBe("stop");
    expect(() => JSON.stringify(events)).not.toThrow();
  });

  it("a tool's own isError or terminate that is not a boolean is an error naming the tool, and an error without a message still names the tool", async () => {
    // Before, isError: "yes" counted as a success and the string reached the transcript and --json;
    // a tool that threw new Error() gave the model an empty error text.
    const tools = [
      returning("flagged", () => ({ content: [{ type: "text", text: "bad" }], isError: "yes" })),
      returning("ender", () => ({ content: [{ type: "text", text: "t" }], terminate: 1 })),
      returning("silent", () => {
        throw new Error("");
      }),
      returning("blank", () => {
        throw "  ";
      }),
    ];
    const names = tools.map((t) => t.name);
    const { events } = await runScenario({ tools, turns: [{ content: names.map((n) => call(n, n)) }, say("done")] });
    const byId = ends(events);
    expect(textOf(byId.get("flagged"))).toBe("Tool flagged returned an invalid result: isError must be true or false.");
    expect(textOf(byId.get("ender"))).toBe("Tool ender returned an invalid result: terminate must be true or false.");
    expect(textOf(byId.get("silent"))).toBe("Tool silent failed with an error that has no message.");
    expect(textOf(byId.get("blank"))).toBe("Tool blank failed with an error that has no message.");
    for (const n of names) expect(byId.get(n)).toMatchObject({ outcome: "failed", isError: true });
  });

  it("a tool_result patch of the wrong shape withholds the result and names the extension (fail closed)", async () => {
    const ext = defineExtension({
      name: "sloppy",
      setup: (api) =>
        api.on("tool_result", (e) => {
          if (e.toolCallId === "A") return { content: "plain text" as never };
          if (e.toolCallId === "B") return { details: { n: 1n } };
          if (e.toolCallId === "C") return { terminate: "yes" as never };
          return undefined;
        }),
    });
    const fine = returning("fine", () => ({ content: [{ type: "text", text: "secret output" }] }));
    const { events } = await runScenario({
      tools: [fine],
      extensions: [ext],
      turns: [{ content: [call("A", "fine"), call("B", "fine"), call("C", "fine"), call("D", "fine")] }, say("done")],
    });
    const byId = ends(events);
    const withheld = (why: string) =>
      `Result withheld: extension "sloppy" failed in its tool_result handler (its patch is invalid: ${why}).`;
    expect(textOf(byId.get("A"))).toBe(withheld("content must be a list of blocks, not string"));
    expect(textOf(byId.get("B"))).toMatch(/^Result withheld: .*details cannot be written as JSON/);
    expect(textOf(byId.get("C"))).toBe(withheld("terminate must be true or false"));
    for (const id of ["A", "B", "C"]) expect(byId.get(id)).toMatchObject({ isError: true });
    expect(textOf(byId.get("D"))).toBe("secret output");
    const errors = events.filter((e) => e.type === "extension_error");
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatchObject({ extension: "sloppy", hook: "tool_result" });
  });

  it("a redactor's misspelt patch ({ contents }) withholds the result instead of passing the original on; the event echoed back with a new content is a patch", async () => {
    // Before, a patch without a known field was ignored: the unredacted text reached the model.
    const ext = defineExtension({
      name: "redactor",
      setup: (api) =>
        api.on("tool_result", (e) => {
          if (e.toolCallId === "A") return { contents: [{ type: "text", text: "[redacted]" }] } as never;
          return { ...e, content: [{ type: "text", text: "[redacted]" }] };
        }),
    });
    const secret = returning("secret", () => ({ content: [{ type: "text", text: "API_KEY=hunter2" }] }));
    const { events } = await runScenario({
      tools: [secret],
      extensions: [ext],
      turns: [{ content: [call("A", "secret"), call("B", "secret")] }, say("done")],
    });
    const byId = ends(events);
    expect(textOf(byId.get("A"))).toBe(
      'Result withheld: extension "redactor" failed in its tool_result handler (its patch is invalid: it has { contents }, which a patch cannot have (expected content, details, isError, terminate)).',
    );
    expect(byId.get("A")).toMatchObject({ isError: true });
    expect(textOf(byId.get("B"))).toBe("[redacted]");
    expect(JSON.stringify(events)).not.toContain("hunter2");
  });

  it("a progress update that is not { content, details? } or not JSON is dropped and logged once naming the tool; the call still runs", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad: unknown[] = [
      "just a string",
      undefined,
      { content: [{ type: "text", text: "c" }], details: cyclic },
      { content: [{ type: "text", text: "b" }], details: { n: 10n } },
      { content: [{ type: "video" }] },
    ];
    const noisy = defineTool({
      name: "noisy",
      description: "reports progress",
      parameters: z.object({}),
      effects: () => [],
      async execute(_args, ctx) {
        for (const update of bad) ctx.onUpdate(update as never);
        ctx.onUpdate({ content: [{ type: "text", text: "fine" }] });
        return { content: [{ type: "text", text: "done" }] };
      },
    });
    const logged: { msg: string; tool?: string }[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const { events } = await runScenario({
      tools: [noisy],
      logger,
      turns: [{ content: [call("N", "noisy")] }, say("ok")],
    });
    const updates = events.filter((e) => e.type === "tool_execution_update");
    // Each went to every subscriber as it was: a string, undefined, or what `--json` cannot print.
    expect(updates.map((e) => (e as { partialResult: unknown }).partialResult)).toEqual([
      { content: [{ type: "text", text: "fine" }] },
    ]);
    expect(ends(events).get("N")).toMatchObject({ outcome: "executed" });
    expect(logged).toEqual([
      expect.objectContaining({
        tool: "noisy",
        msg: "Tool noisy reported an invalid progress update, dropped: expected { content: [...] }, not string.",
      }),
    ]);
    expect(() => JSON.stringify(events)).not.toThrow();
  });
});
