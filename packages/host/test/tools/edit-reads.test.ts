import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { defineExtension, type ToolResultMessage } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { call, runScenario, say, tempDir } from "../helpers/scenario.ts";

/** A guard of the kind extension authors write: it refuses every read effect below `secrets/`. */
const noSecretReads = (cwd: string) =>
  defineExtension({
    name: "no-secret-reads",
    setup(api) {
      api.on(
        "tool_call",
        (e) => {
          const denied = (e.effects ?? []).some(
            (effect) => effect.kind === "read" && path.resolve(cwd, effect.path).startsWith(path.join(cwd, "secrets")),
          );
          return denied ? { block: true, reason: "secrets are not readable" } : undefined;
        },
        { stage: "enforce" },
      );
    },
  });

describe("edit declares the read it makes", () => {
  // Before: edit declared only a write, so a guard denying reads let it through, and its answers
  // ("overlap" for two edits of one text found once, "not found" otherwise) spelled out the file.
  it("a guard that denies reading a file blocks editing it, so edit's errors cannot reveal its text", async () => {
    const cwd = tempDir();
    const secret = path.join(cwd, "secrets", "key.txt");
    mkdirSync(path.dirname(secret));
    writeFileSync(secret, "PRIVATE-KEY\n");
    const guess = (id: string, text: string) =>
      call(id, "edit", {
        path: "secrets/key.txt",
        edits: [
          { oldText: text, newText: "a" },
          { oldText: text, newText: "b" },
        ],
      });
    const { events, result } = await runScenario({
      cwd,
      extensions: [noSecretReads(cwd)],
      turns: [{ content: [guess("A", "PRIVATE-K"), guess("B", "PRIVATE-X")] }, say("done")],
    });
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, e.outcome, e.blockedBy])).toEqual([
      ["A", "blocked", "no-secret-reads"],
      ["B", "blocked", "no-secret-reads"],
    ]);
    const results = result.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
    for (const message of results) expect(JSON.stringify(message.content)).not.toMatch(/overlap|not found/);
    expect(readFileSync(secret, "utf8")).toBe("PRIVATE-KEY\n");
  });
});
