import { renameSync, symlinkSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { defineExtension, defineTool, type ToolEffect } from "@gatehouse/sdk";
import { createTestHost, toolCall, turn } from "@gatehouse/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CheckMemo } from "../src/check/check-memo.ts";
import type { Policy } from "../src/index.ts";
import { createFixture } from "./helpers/fixture.ts";

/** The fixture's policy, counting how often it really decides. */
function counted(policy: Policy): { policy: Policy; decided: () => number } {
  let n = 0;
  return {
    policy: {
      ...policy,
      check: (effect: ToolEffect) => {
        n++;
        return policy.check(effect);
      },
    },
    decided: () => n,
  };
}

const SECRET = "SECRET=in-the-env-file";

describe("CheckMemo: one decision per path and access within a synchronous stretch", () => {
  it("decides a repeated read once, and a write, another path or an exec apart", () => {
    const f = createFixture();
    f.file("src/notes.md", "notes");
    const { policy, decided } = counted(f.policy());
    const memo = new CheckMemo();
    const read = { kind: "read", path: "src/notes.md" } as const;
    for (let i = 0; i < 5; i++) expect(memo.check(policy, read).allow).toBe(true);
    expect(decided()).toBe(1);
    expect(memo.check(policy, { kind: "write", path: "src/notes.md" }).allow).toBe(true);
    expect(memo.check(policy, { kind: "read", path: ".env" }).allow).toBe(false);
    expect(memo.check(policy, { kind: "read", path: ".env" }).allow).toBe(false);
    expect(decided()).toBe(3);
    memo.check(policy, { kind: "exec", command: "ls" });
    memo.check(policy, { kind: "exec", command: "ls" });
    expect(decided()).toBe(5);
  });

  it("forgets everything once the stretch ends (a microtask later) and when the policy changes", async () => {
    const f = createFixture();
    f.file("src/notes.md", "notes");
    const first = counted(f.policy());
    const memo = new CheckMemo();
    const read = { kind: "read", path: "src/notes.md" } as const;
    memo.check(first.policy, read);
    await Promise.resolve();
    memo.check(first.policy, read);
    expect(first.decided()).toBe(2);
    const second = counted(f.policy({ denyRead: ["src/**"] }));
    expect(memo.check(second.policy, read).allow).toBe(false);
    expect(second.decided()).toBe(1);
  });

  it("a path swapped for a link to .env after an await is decided afresh", async () => {
    const f = createFixture();
    f.file(".env", SECRET);
    f.file("src/notes.md", "notes");
    const policy = f.policy();
    const memo = new CheckMemo();
    const read = { kind: "read", path: "src/notes.md" } as const;
    expect(memo.check(policy, read).allow).toBe(true);
    renameSync(path.join(f.ws, "src/notes.md"), path.join(f.ws, "src/old.md"));
    symlinkSync(path.join(f.ws, ".env"), path.join(f.ws, "src/notes.md"));
    await Promise.resolve();
    expect(memo.check(policy, read).allow).toBe(false);
  });
});

describe("CheckMemo in a real host: a swap between two checks of one path never reveals the file", () => {
  /** Writes nothing itself; `swap` replaces notes.md with a link to .env while it runs. */
  const swapTool = (swap: () => void) =>
    defineTool({
      name: "swap",
      description: "Replaces notes.md",
      parameters: z.object({}),
      effects: () => [{ kind: "write", path: "src/notes.md" }],
      execute: () => {
        swap();
        return { content: [{ type: "text", text: "swapped" }] };
      },
    });

  const project = () => {
    const f = createFixture();
    f.file(".env", SECRET);
    f.file("src/notes.md", "notes");
    const swap = () => {
      renameSync(path.join(f.ws, "src/notes.md"), path.join(f.ws, "src/old.md"));
      symlinkSync(path.join(f.ws, ".env"), path.join(f.ws, "src/notes.md"));
    };
    return { f, swap };
  };

  it("sequential: a tool that swaps the path runs between two reads, and the second read is refused by the policy", async () => {
    const { f, swap } = project();
    const read = { path: "src/notes.md" };
    const t = await createTestHost({
      cwd: f.ws,
      home: path.join(f.base, "gh-home"),
      extensions: [protectedPaths],
      tools: [swapTool(swap)],
      toolExecution: "sequential",
      turns: [turn(toolCall("A", "read", read), toolCall("B", "swap"), toolCall("C", "read", read)), turn("done")],
    });
    try {
      await t.run("go");
      const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
      expect(ends.get("A")).toMatchObject({ outcome: "executed" });
      expect(ends.get("B")).toMatchObject({ outcome: "executed" });
      expect(ends.get("C")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(String(ends.get("C")?.reason)).toContain(".env");
      expect(JSON.stringify(t.events)).not.toContain(SECRET);
    } finally {
      await t.close();
    }
  });

  it("parallel: swapped after the first check, inside the same batch, the second read is remembered allowed but the read tool refuses the swapped file", async () => {
    const { f, swap } = project();
    let checks = 0;
    // An enforce handler loaded after the guard runs right after protected-paths allowed each call.
    const swapper = defineExtension({
      name: "swapper",
      setup: (api) =>
        api.on(
          "tool_call",
          () => {
            if (++checks === 1) swap();
          },
          { stage: "enforce" },
        ),
    });
    const read = { path: "src/notes.md" };
    const t = await createTestHost({
      cwd: f.ws,
      home: path.join(f.base, "gh-home"),
      extensions: [protectedPaths, swapper],
      turns: [turn(toolCall("A", "read", read), toolCall("B", "read", read)), turn("done")],
    });
    try {
      await t.run("go");
      expect(checks).toBe(2);
      const ends = t.eventsOf("tool_execution_end");
      expect(ends).toHaveLength(2);
      for (const end of ends) expect(end.isError).toBe(true);
      expect(JSON.stringify(t.events)).not.toContain(SECRET);
    } finally {
      await t.close();
    }
  });
});
