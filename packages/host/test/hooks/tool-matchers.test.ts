import {
  defineExtension,
  defineTool,
  type GatehouseEvent,
  isToolCall,
  type ToolExecutionEndEvent,
} from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileToolMatcher } from "../../src/hooks/tool-matcher.ts";
import { createHost } from "../../src/host/create-host.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { call, quietLogger, runScenario, say, tempDir } from "../helpers/scenario.ts";

const ends = (events: GatehouseEvent[]) =>
  events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");

const note = defineTool({
  name: "note",
  description: "keeps a note",
  parameters: z.object({ text: z.string() }),
  effects: () => [],
  execute: ({ text }) => ({ content: [{ type: "text", text }], details: { chars: text.length } }),
});

/** A batch that calls write, edit, read and note once each (the files exist, so all can run). */
function mixedBatch(cwd: string) {
  return {
    cwd,
    tools: [note],
    turns: [
      {
        content: [
          call("W", "write", { path: "a.txt", content: "one" }),
          call("E", "edit", { path: "b.txt", oldText: "x", newText: "y" }),
          call("R", "read", { path: "b.txt" }),
          call("N", "note", { text: "hi" }),
        ],
      },
      say("done"),
    ],
  };
}

async function withFiles() {
  const cwd = tempDir();
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${cwd}/b.txt`, "x");
  return cwd;
}

describe("tools matchers", () => {
  it("a matched handler is called only for the listed tools, in every stage and for observers", async () => {
    const seen: Record<string, string[]> = { transform: [], enforce: [], result: [], end: [], all: [] };
    const ext = defineExtension({
      name: "picky",
      setup(api) {
        api.on("tool_call", (e) => void seen.transform?.push(e.toolName), { tools: ["write", "edit"] });
        api.on("tool_call", (e) => void seen.enforce?.push(e.toolName), { stage: "enforce", tools: ["edit"] });
        api.on("tool_result", (e) => void seen.result?.push(e.toolName), { tools: [note] });
        api.on("tool_execution_end", (e) => void seen.end?.push(e.toolName), { tools: /^(read|note)$/ });
        api.on("tool_call", (e) => void seen.all?.push(e.toolName));
      },
    });
    const { events } = await runScenario({ ...mixedBatch(await withFiles()), extensions: [ext] });
    const bySource = ends(events).sort((a, b) => "WERN".indexOf(a.toolCallId) - "WERN".indexOf(b.toolCallId));
    expect(bySource.map((e) => [e.toolCallId, e.outcome])).toEqual([
      ["W", "executed"],
      ["E", "executed"],
      ["R", "executed"],
      ["N", "executed"],
    ]);
    seen.end?.sort(); // end events follow completion order
    expect(seen).toEqual({
      transform: ["write", "edit"],
      enforce: ["edit"],
      result: ["note"],
      end: ["note", "read"],
      all: ["write", "edit", "read", "note"],
    });
  });

  it("a guard matched to write blocks writes and nothing else; the event is typed by the matcher", async () => {
    const ext = defineExtension({
      name: "no-txt-writes",
      setup(api) {
        api.on(
          "tool_call",
          (e) => (e.input.path.endsWith(".txt") ? { block: true, reason: `no ${e.input.path}` } : undefined),
          { stage: "enforce", tools: ["write"] },
        );
      },
    });
    const { events } = await runScenario({ ...mixedBatch(await withFiles()), extensions: [ext] });
    const outcomes = Object.fromEntries(ends(events).map((e) => [e.toolCallId, e.outcome]));
    expect(outcomes).toEqual({ W: "blocked", E: "executed", R: "executed", N: "executed" });
    expect(ends(events).find((e) => e.toolCallId === "W")).toMatchObject({
      blockedBy: "no-txt-writes",
      reason: "no a.txt",
    });
  });

  it("a RegExp with the g flag matches every call (no lastIndex state between calls)", async () => {
    const calls: string[] = [];
    const ext = defineExtension({
      name: "global-regexp",
      setup: (api) => api.on("tool_call", (e) => void calls.push(e.toolCallId), { stage: "enforce", tools: /note/g }),
    });
    await runScenario({
      tools: [note],
      extensions: [ext],
      turns: [
        {
          content: [
            call("A", "note", { text: "1" }),
            call("B", "note", { text: "2" }),
            call("C", "note", { text: "3" }),
          ],
        },
        say("ok"),
      ],
    });
    expect(calls).toEqual(["A", "B", "C"]);
  });

  it("isToolCall narrows inside an unmatched handler the same way", async () => {
    const chars: unknown[] = [];
    const ext = defineExtension({
      name: "details-reader",
      setup: (api) =>
        api.on("tool_result", (e) => {
          if (isToolCall(e, note) && !e.isError) chars.push(e.details?.chars);
        }),
    });
    await runScenario({
      tools: [note],
      extensions: [ext],
      turns: [{ content: [call("A", "note", { text: "four" })] }, say("ok")],
    });
    expect(chars).toEqual([4]);
  });

  it("gatehouse extensions shows what each handler is matched to", async () => {
    const ext = defineExtension({
      name: "shown",
      setup(api) {
        api.on("tool_call", () => undefined, { stage: "enforce", tools: ["write", "edit"] });
        api.on("tool_result", () => undefined, { tools: /^b/ });
        api.on("turn_end", () => {});
      },
    });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [ext],
    });
    expect(host.extensions()[0]?.handlers).toEqual(["tool_call:enforce[write,edit]", "tool_result[/^b/]", "turn_end"]);
    await host.close();
  });

  it.each([
    [
      "a string of several names",
      { tools: "Write|Edit" },
      /tools is the string "Write\|Edit"; list tool names as \["write", "edit"\]/,
    ],
    ["an empty list", { tools: [] }, /empty list, so the handler would never run/],
    [
      "a built-in's name in the wrong case",
      { tools: ["Write"] },
      /case-sensitive: "Write" never matches the built-in "write"/,
    ],
    ["a name with a bar", { tools: ["write|edit"] }, /one tool name/],
    ["an entry that is no name", { tools: [42] }, /lists 42, which is neither a tool name nor a defineTool handle/],
  ])("a guard with %s fails its load, naming the extension", async (_what, options, message) => {
    const ext = defineExtension({
      name: "typo-guard",
      setup: (api) => api.on("tool_call", () => undefined, { stage: "enforce", ...(options as object) }),
    });
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: [ext],
    });
    const record = host.extensions()[0];
    expect(record?.status).toBe("failed");
    expect(record?.errors[0]).toMatch(
      /^Extension "typo-guard": the tools matcher of its "tool_call" handler is wrong: /,
    );
    expect(record?.errors[0]).toMatch(message);
    await host.close();
  });

  it("tools on an event that is not one call's, and stage on anything but tool_call, fail the load", async () => {
    const wrong = [
      defineExtension({ name: "a", setup: (api) => api.on("agent_start", () => {}, { tools: ["write"] } as never) }),
      defineExtension({
        name: "b",
        setup: (api) => api.on("tool_result", () => undefined, { stage: "enforce" } as never),
      }),
      defineExtension({ name: "c", setup: (api) => api.on("turn_end", () => {}, "enforce" as never) }),
    ];
    const host = await createHost({
      cwd: tempDir(),
      model: createScriptedModel({ turns: [] }),
      logger: quietLogger,
      extensions: wrong,
    });
    // Each message ends with where the extension made the call (this file), not the host's code.
    const site = / \(at .*tool-matchers\.test\.ts:\d+\)$/;
    expect(host.extensions().map((r) => r.errors[0]?.replace(site, ""))).toEqual([
      'Extension "a": "agent_start" is not an event of one tool call, so it takes no tools matcher.',
      'Extension "b": stage applies to "tool_call" handlers only, not to "tool_result".',
      'Extension "c": the options of its "turn_end" handler must be an object, like { stage: "enforce" }.',
    ]);
    for (const record of host.extensions()) expect(record.errors[0]).toMatch(site);
    await host.close();
  });
});

describe("compileToolMatcher", () => {
  it("matches names and handles exactly, and a RegExp as written", () => {
    const list = compileToolMatcher(["write", note]);
    if (typeof list === "string") throw new Error(list);
    expect(["write", "note", "edit", "Write", "write "].map((n) => list.matches(n))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const re = compileToolMatcher(/^(write|edit)$/i);
    if (typeof re === "string") throw new Error(re);
    expect(["write", "EDIT", "overwrite"].map((n) => re.matches(n))).toEqual([true, true, false]);
  });
});
