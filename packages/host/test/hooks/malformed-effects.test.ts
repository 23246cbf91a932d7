import { defineExtension, defineTool, type GuardedToolCallEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { normaliseEffects } from "../../src/hooks/effect-shape.ts";
import { call, runScenario, say } from "../helpers/scenario.ts";

/** A tool whose `effects` returns `value` (what a mistake in an extension can produce). */
const declaring = (name: string, value: unknown) =>
  defineTool({
    name,
    description: name,
    parameters: z.object({}),
    effects: (() => value) as never,
    execute: () => ({ content: [{ type: "text", text: `${name} ran` }] }),
  });

/** A guard that looks at nothing (tool-audit's enforce handler is one): effects are computed for it. */
const watching = (saw: GuardedToolCallEvent[]) =>
  defineExtension({
    name: "watching",
    setup: (api) => api.on("tool_call", (e) => void saw.push(e), { stage: "enforce" }),
  });

describe("malformed effects", () => {
  // Before: each of these ended the run with "unexpected failure: TypeError" and a stack trace (exit 1).
  it("a call whose tool declares effects no guard can read is blocked, naming the problem, and the run goes on", async () => {
    const saw: GuardedToolCallEvent[] = [];
    const tools = [
      declaring("nullEntry", [null]),
      declaring("notAList", { kind: "read", path: ".env" }),
      declaring("promised", Promise.resolve([{ kind: "read", path: ".env" }])),
      declaring("pathList", [{ kind: "read", path: ["notes.txt", ".env"] }]),
      declaring("nothing", undefined),
      declaring("fine", [{ kind: "read", path: "notes.txt" }]),
    ];
    const names = tools.map((t) => t.name);
    const { events, result } = await runScenario({
      tools,
      extensions: [watching(saw)],
      turns: [{ content: names.map((name) => call(name, name)) }, say("done")],
    });
    expect(result.stopReason).toBe("stop");
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(Object.fromEntries(ends.map((e) => [e.toolCallId, e.outcome]))).toEqual({
      nullEntry: "blocked",
      notAList: "blocked",
      promised: "blocked",
      pathList: "blocked",
      nothing: "blocked",
      fine: "executed",
    });
    const reason = (id: string) => ends.find((e) => e.toolCallId === id)?.reason;
    expect(reason("nullEntry")).toBe(
      'Blocked: the effects of tool nullEntry cannot be checked: effects[0] is null, not an object like { kind: "read", path: "a.txt" }.',
    );
    expect(reason("notAList")).toContain("they are object, not a list of effects");
    expect(reason("promised")).toContain("a promise (effects are computed synchronously)");
    expect(reason("pathList")).toContain("effects[0] (read) has a path that is a list, not a string");
    expect(reason("nothing")).toContain("they are undefined, not a list of effects");
    expect(saw.map((e) => e.toolName)).toEqual(["fine"]);
    expect(saw[0]?.effects).toEqual([{ kind: "read", path: "notes.txt" }]);
  });
});

describe("normaliseEffects", () => {
  it("reads each field once into fresh objects, keeping only what a known kind names", () => {
    let reads = 0;
    const effect = {
      kind: "write",
      get path() {
        reads++;
        return reads === 1 ? "notes.txt" : ".env";
      },
      extra: 1,
    };
    const shape = normaliseEffects([effect, { kind: "custom", what: "x" }]);
    expect(shape).toEqual({
      effects: [
        { kind: "write", path: "notes.txt" },
        { kind: "custom", what: "x" },
      ],
    });
    expect(reads).toBe(1);
  });
});
