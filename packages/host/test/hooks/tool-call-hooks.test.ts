import { defineExtension, defineTool, type GatehouseEvent, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runScenario, say } from "../helpers/scenario.ts";

const ends = (events: GatehouseEvent[]) =>
  events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

/** Records the arguments each execution received. */
function recorder() {
  const received: unknown[] = [];
  const tool = defineTool({
    name: "save",
    description: "saves",
    parameters: z.object({ path: z.string(), mode: z.enum(["a", "b"]).default("a") }),
    effects: (args) => [{ kind: "write", path: args.path }],
    execute: (args) => {
      received.push(args);
      return { content: [{ type: "text", text: `saved ${args.path}` }], details: { path: args.path } };
    },
  });
  return { received, tool };
}

const once = (turns: unknown[]) => [...turns, say("done")];

describe("tool_call transform stage", () => {
  it("an in-place mutation is re-validated and the tool runs with it", async () => {
    const { received, tool } = recorder();
    const ext = defineExtension({
      name: "rewrite",
      setup: (api) =>
        api.on("tool_call", (e) => {
          e.input.path = `safe/${String(e.input.path)}`;
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toEqual([{ path: "safe/x", mode: "a" }]);
    expect(ends(events)[0]).toMatchObject({ outcome: "executed", args: { path: "safe/x", mode: "a" } });
  });

  it("a mutation that breaks the schema is an invalid result naming the extension; the tool never runs", async () => {
    const { received, tool } = recorder();
    const ext = defineExtension({
      name: "breaker",
      setup: (api) =>
        api.on("tool_call", (e) => {
          (e.input as Record<string, unknown>).mode = "zzz";
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toEqual([]);
    const end = ends(events)[0];
    expect(end).toMatchObject({ outcome: "invalid", blockedBy: "breaker", isError: true });
    expect(end?.reason).toContain('Extension "breaker"');
    expect(end?.reason).toContain("mode");
  });

  it("a nested mutation is detected too", async () => {
    const received: unknown[] = [];
    const tool = defineTool({
      name: "multi",
      description: "edits",
      parameters: z.object({ edits: z.array(z.object({ oldText: z.string() })) }),
      execute: (args) => {
        received.push(args);
        return { content: [] };
      },
    });
    const ext = defineExtension({
      name: "nested",
      setup: (api) =>
        api.on("tool_call", (e) => {
          (e.input.edits as { oldText: unknown }[])[0]!.oldText = 5;
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "multi", { edits: [{ oldText: "a" }] })] }]),
    });
    expect(received).toEqual([]);
    expect(ends(events)[0]).toMatchObject({ outcome: "invalid", blockedBy: "nested" });
  });

  it("returning { input } replaces the input; later handlers observe earlier changes", async () => {
    const { received, tool } = recorder();
    const seenBySecond: unknown[] = [];
    const first = defineExtension({
      name: "first",
      setup: (api) => api.on("tool_call", () => ({ input: { path: "replaced", mode: "b" } })),
    });
    const second = defineExtension({
      name: "second",
      setup: (api) =>
        api.on("tool_call", (e) => {
          seenBySecond.push({ ...e.input });
        }),
    });
    await runScenario({
      tools: [tool],
      extensions: [first, second],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(seenBySecond).toEqual([{ path: "replaced", mode: "b" }]);
    expect(received).toEqual([{ path: "replaced", mode: "b" }]);
  });

  it("the model's original arguments in the transcript are never changed by a transform", async () => {
    const { tool } = recorder();
    const ext = defineExtension({
      name: "rewrite",
      setup: (api) =>
        api.on("tool_call", (e) => {
          e.input.path = "other";
        }),
    });
    const { result } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    const assistant = result.messages[1] as { content: { arguments?: unknown }[] };
    expect(assistant.content.find((b) => b.arguments)?.arguments).toEqual({ path: "x" });
  });
});

describe("tool_call enforce stage", () => {
  it("runs after every transform, on the final input, frozen, with its effects", async () => {
    const { tool } = recorder();
    const seen: { input: unknown; frozen: boolean; effects: unknown }[] = [];
    // The guard is loaded FIRST, the transform second: stage order still puts the guard last.
    const guard = defineExtension({
      name: "guard",
      setup: (api) =>
        api.on(
          "tool_call",
          (e) => {
            seen.push({ input: { ...e.input }, frozen: Object.isFrozen(e.input), effects: e.effects });
          },
          { stage: "enforce" },
        ),
    });
    const transform = defineExtension({
      name: "transform",
      setup: (api) =>
        api.on("tool_call", (e) => {
          e.input.path = ".env";
        }),
    });
    await runScenario({
      tools: [tool],
      extensions: [guard, transform],
      turns: once([{ content: [call("A", "save", { path: "ok.txt" })] }]),
    });
    expect(seen).toEqual([
      { input: { path: ".env", mode: "a" }, frozen: true, effects: [{ kind: "write", path: ".env" }] },
    ]);
  });

  it("a guard that tries to mutate the frozen input is blocked (fail closed)", async () => {
    const { received, tool } = recorder();
    const guard = defineExtension({
      name: "sneaky",
      setup: (api) =>
        api.on(
          "tool_call",
          (e) => {
            (e.input as Record<string, unknown>).path = "elsewhere";
          },
          { stage: "enforce" },
        ),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [guard],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toEqual([]);
    expect(ends(events)[0]).toMatchObject({ outcome: "blocked", blockedBy: "sneaky" });
  });

  it("an answer a guard got wrong — block that is not a boolean, or { input } from the enforce stage — blocks the call naming the extension", async () => {
    const { received, tool } = recorder();
    const answers: Record<string, unknown> = {
      A: { block: "true" },
      B: { block: 1, reason: "one" },
      C: { input: { path: "elsewhere" } },
      D: 42, // not an object: no decision (a handler written as `(e) => list.push(e)`)
      E: { block: false },
    };
    const guard = defineExtension({
      name: "loose",
      setup: (api) => api.on("tool_call", (e) => answers[e.toolCallId] as never, { stage: "enforce" }),
    });
    const transform = defineExtension({
      name: "loose-transform",
      setup: (api) => api.on("tool_call", (e) => (e.toolCallId === "F" ? ({ block: "yes" } as never) : undefined)),
    });
    const ids = ["A", "B", "C", "D", "E", "F"];
    const { events } = await runScenario({
      tools: [tool],
      extensions: [guard, transform],
      turns: once([{ content: ids.map((id) => call(id, "save", { path: id })) }]),
    });
    const byId = new Map(ends(events).map((e) => [e.toolCallId, e]));
    for (const id of ["A", "B", "C"]) {
      expect(byId.get(id)).toMatchObject({ outcome: "blocked", blockedBy: "loose" });
      expect(byId.get(id)?.reason).toMatch(
        /^Blocked: extension "loose" failed in its tool_call \(enforce\) handler \(it answered/,
      );
    }
    expect(byId.get("F")).toMatchObject({ outcome: "blocked", blockedBy: "loose-transform" });
    expect(received).toEqual([
      { path: "D", mode: "a" },
      { path: "E", mode: "a" },
    ]);
  });

  it("a misspelt answer ({ blocked: true }, { Block: true }) blocks the call naming the extension and the key; the call's own input handed back is no decision", async () => {
    // Before, an object answer without a `block` key was ignored: a guard whose answer had a typo
    // was silently off and the call ran.
    const { received, tool } = recorder();
    const answers: Record<string, (e: { input: Record<string, unknown> }) => unknown> = {
      A: () => ({ blocked: true, reason: "no" }),
      B: () => ({ Block: true }),
      C: (e) => e.input, // the frozen input itself: no decision
    };
    const guard = defineExtension({
      name: "typo-guard",
      setup: (api) => api.on("tool_call", (e) => answers[e.toolCallId]?.(e as never) as never, { stage: "enforce" }),
    });
    const transform = defineExtension({
      name: "typo-transform",
      setup: (api) =>
        api.on("tool_call", (e) => {
          if (e.toolCallId === "E") return { inputs: { path: "x" } } as never;
          if (e.toolCallId === "F") return Object.assign(e.input, { mode: "b" }) as never; // mutation, returned
          return undefined;
        }),
    });
    const ids = ["A", "B", "C", "E", "F"];
    const { events } = await runScenario({
      tools: [tool],
      extensions: [transform, guard],
      turns: once([{ content: ids.map((id) => call(id, "save", { path: id })) }]),
    });
    const byId = new Map(ends(events).map((e) => [e.toolCallId, e]));
    expect(byId.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "typo-guard" });
    expect(byId.get("A")?.reason).toBe(
      'Blocked: extension "typo-guard" failed in its tool_call (enforce) handler (it answered { blocked }, which is not a tool_call answer (expected { block: true, reason } or nothing)), so the call was not run.',
    );
    expect(byId.get("B")).toMatchObject({ outcome: "blocked", blockedBy: "typo-guard" });
    expect(byId.get("E")).toMatchObject({ outcome: "blocked", blockedBy: "typo-transform" });
    expect(byId.get("E")?.reason).toContain("it answered { inputs }");
    expect(received).toEqual([
      { path: "C", mode: "a" },
      { path: "F", mode: "b" },
    ]);
  });

  it("a blocked end reports the input the guard refused", async () => {
    const { tool } = recorder();
    const transform = defineExtension({
      name: "t",
      setup: (api) => api.on("tool_call", () => ({ input: { path: "moved" } })),
    });
    const guard = defineExtension({
      name: "g",
      setup: (api) => api.on("tool_call", () => ({ block: true, reason: "refused" }), { stage: "enforce" }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [transform, guard],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(ends(events)[0]).toMatchObject({ outcome: "blocked", args: { path: "moved", mode: "a" } });
  });
});

describe("fail closed", () => {
  it("a throwing tool_call handler blocks the call, names the extension, and emits extension_error", async () => {
    const { received, tool } = recorder();
    const ext = defineExtension({
      name: "thrower",
      setup: (api) =>
        api.on("tool_call", () => {
          throw new Error("boom");
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toEqual([]);
    const end = ends(events)[0];
    expect(end).toMatchObject({ outcome: "blocked", blockedBy: "thrower" });
    expect(end?.reason).toContain("boom");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "extension_error", extension: "thrower", error: "boom" }),
    );
  });

  it("a tool_call handler that times out blocks the call", async () => {
    const { received, tool } = recorder();
    const ext = defineExtension({
      name: "hangs",
      setup: (api) => api.on("tool_call", () => new Promise<undefined>(() => {}), { stage: "enforce" }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      hookTimeoutMs: 50,
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toEqual([]);
    expect(ends(events)[0]).toMatchObject({ outcome: "blocked", blockedBy: "hangs" });
    expect(events).toContainEqual(expect.objectContaining({ type: "extension_error", extension: "hangs" }));
  });

  it("an effects function that throws blocks the call when guards are present", async () => {
    const tool = defineTool({
      name: "odd",
      description: "odd effects",
      parameters: z.object({}),
      effects: () => {
        throw new Error("cannot tell");
      },
      execute: () => ({ content: [] }),
    });
    const guard = defineExtension({
      name: "g",
      setup: (api) => api.on("tool_call", () => undefined, { stage: "enforce" }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [guard],
      turns: once([{ content: [call("A", "odd")] }]),
    });
    expect(ends(events)[0]).toMatchObject({ outcome: "blocked" });
    expect(ends(events)[0]?.reason).toContain("cannot tell");
  });
});

describe("tool_result chain", () => {
  it("patches field by field; omitted fields keep their values; later handlers see earlier patches", async () => {
    const { tool } = recorder();
    const seen: unknown[] = [];
    const a = defineExtension({
      name: "a",
      setup: (api) => api.on("tool_result", () => ({ content: [{ type: "text", text: "redacted" }] })),
    });
    const b = defineExtension({
      name: "b",
      setup: (api) =>
        api.on("tool_result", (e) => {
          seen.push({ content: e.content, details: e.details, isError: e.isError });
          return { isError: true };
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [a, b],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(seen).toEqual([{ content: [{ type: "text", text: "redacted" }], details: { path: "x" }, isError: false }]);
    expect(ends(events)[0]).toMatchObject({
      isError: true,
      outcome: "failed",
      result: { content: [{ type: "text", text: "redacted" }], details: { path: "x" } },
    });
  });

  it("a throwing tool_result handler replaces the result with an error, so nothing leaks", async () => {
    const { tool } = recorder();
    const ext = defineExtension({
      name: "redactor",
      setup: (api) =>
        api.on("tool_result", () => {
          throw new Error("redactor crashed");
        }),
    });
    const { events, result } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    const text = JSON.stringify(result.messages[2]);
    expect(text).not.toContain("saved x");
    expect(text).toContain('extension \\"redactor\\" failed');
    expect(ends(events)[0]).toMatchObject({ isError: true });
    expect(events).toContainEqual(
      expect.objectContaining({ type: "extension_error", extension: "redactor", hook: "tool_result" }),
    );
  });

  it("terminate can be set by a tool_result handler", async () => {
    const { tool } = recorder();
    const ext = defineExtension({
      name: "stopper",
      setup: (api) => api.on("tool_result", () => ({ terminate: true })),
    });
    const { seq } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(seq.slice(-2)).toEqual(["turn_end([A])", "agent_end(3)"]);
  });
});

describe("observers fail open", () => {
  it("a throwing observer is reported but the run goes on", async () => {
    const { received, tool } = recorder();
    const ext = defineExtension({
      name: "noisy",
      setup: (api) =>
        api.on("tool_execution_start", () => {
          throw new Error("observer broke");
        }),
    });
    const { events } = await runScenario({
      tools: [tool],
      extensions: [ext],
      turns: once([{ content: [call("A", "save", { path: "x" })] }]),
    });
    expect(received).toHaveLength(1);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "extension_error",
        extension: "noisy",
        hook: "tool_execution_start",
        error: "observer broke",
      }),
    );
  });
});
