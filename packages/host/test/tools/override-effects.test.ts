import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { defineExtension, defineTool, type GuardedToolCallEvent, type ToolResultMessage } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";

/** A guard that records what it saw and refuses every read effect below `secrets/`. */
function noSecretReads(cwd: string, saw: GuardedToolCallEvent[]) {
  return defineExtension({
    name: "no-secret-reads",
    setup(api) {
      api.on(
        "tool_call",
        (e) => {
          saw.push(e);
          const denied = (e.effects ?? []).some(
            (effect) =>
              effect.kind === "read" &&
              typeof effect.path === "string" &&
              path.resolve(cwd, effect.path).startsWith(path.join(cwd, "secrets")),
          );
          return denied ? { block: true, reason: "secrets are not readable" } : undefined;
        },
        { stage: "enforce" },
      );
    },
  });
}

/** An override of grep that adds a folder to search from, and declares no effects (the mistake). */
const grepFrom = defineTool({
  name: "grep",
  description: "grep from a folder",
  parameters: z.object({ pattern: z.string(), path: z.string().optional(), cwd: z.string().optional() }),
  execute: ({ pattern, path: file, cwd }, ctx) => {
    const text = readFileSync(path.resolve(ctx.cwd, cwd ?? ".", file ?? "notes.txt"), "utf8");
    return { content: [{ type: "text", text: text.includes(pattern) ? text : "no match" }] };
  },
});

/** An override of read that renamed `path`. */
const readFile = defineTool({
  name: "read",
  description: "read by another name",
  parameters: z.object({ file: z.string() }),
  execute: ({ file }, ctx) => ({
    content: [{ type: "text", text: readFileSync(path.resolve(ctx.cwd, file), "utf8") }],
  }),
});

function project() {
  const cwd = tempDir();
  mkdirSync(path.join(cwd, "secrets"));
  writeFileSync(path.join(cwd, "secrets", "key.txt"), "PRIVATE-KEY\n");
  writeFileSync(path.join(cwd, "notes.txt"), "hello\n");
  return cwd;
}

describe("an override that declares no effects inherits the built-in's only for the built-in's input", () => {
  // Before: grep {cwd: "secrets", path: "key.txt"} was checked as a read of "key.txt" and printed the key.
  it("a call with an argument the built-in does not have is blocked, naming it, and never runs", async () => {
    const cwd = project();
    const saw: GuardedToolCallEvent[] = [];
    const { events, result } = await runScenario({
      cwd,
      tools: [grepFrom, readFile],
      extensions: [noSecretReads(cwd, saw)],
      turns: [
        {
          content: [
            call("A", "grep", { pattern: "PRIVATE", cwd: "secrets", path: "key.txt" }),
            call("B", "read", { file: "secrets/key.txt" }),
          ],
        },
        say("done"),
      ],
    });
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, e.outcome, e.blockedBy])).toEqual([
      ["A", "blocked", "gatehouse"],
      ["B", "blocked", "gatehouse"],
    ]);
    const texts = result.messages
      .filter((m): m is ToolResultMessage => m.role === "toolResult")
      .map((m) => JSON.stringify(m.content));
    expect(texts.join("\n")).not.toContain("PRIVATE-KEY");
    expect(texts[0]).toContain('the built-in has no argument \\"cwd\\"');
    expect(texts[0]).toContain("the tool must declare its effects");
    expect(texts[1]).toContain("not ones the built-in takes");
    expect(saw).toEqual([]);
  });

  it("a call whose input the built-in takes is checked with the built-in's effects, as before", async () => {
    const cwd = project();
    const saw: GuardedToolCallEvent[] = [];
    const { events } = await runScenario({
      cwd,
      tools: [grepFrom],
      extensions: [noSecretReads(cwd, saw)],
      turns: [
        { content: [call("A", "grep", { pattern: "hello", path: "notes.txt" }), call("B", "grep", { pattern: "P" })] },
        { content: [call("C", "grep", { pattern: "PRIVATE", path: "secrets/key.txt" })] },
        say("done"),
      ],
    });
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, e.outcome])).toEqual([
      ["A", "executed"],
      ["B", "executed"],
      ["C", "blocked"],
    ]);
    expect(saw.map((e) => e.effects)).toEqual([
      [{ kind: "read", path: "notes.txt" }],
      [{ kind: "read", path: "." }],
      [{ kind: "read", path: "secrets/key.txt" }],
    ]);
  });
});
