import { existsSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { createTestHost } from "@gatehouse/testing";
import { describe, expect, it } from "vitest";
import type { Decision } from "../src/index.ts";
import { createFixture } from "./helpers/fixture.ts";

/** "allow", or the refusal's rule and reason. */
function outcome(decision: Decision): string {
  return decision.allow ? "allow" : `${decision.rule}: ${decision.reason}`;
}

describe("limits on what one path may ask of a check", () => {
  it("a write that would create more folders than are checked is refused, so no .git appears below them", async () => {
    const f = createFixture();
    f.dir("sub");
    const policy = f.policy();
    const deep = `sub/.git/${"d/".repeat(70)}x`;
    expect(outcome(policy.check({ kind: "write", path: deep }))).toMatch(
      /^too many new folders: Write to .* refused: it would create more than 64 folders, too many to check/,
    );
    // 64 new folders are still checked one by one: the new .git among them is found.
    expect(outcome(policy.check({ kind: "write", path: `sub/.git/${"d/".repeat(62)}x` }))).toMatch(
      /^default denyWrite \.git:/,
    );
    expect(outcome(policy.check({ kind: "write", path: `sub/new/${"d/".repeat(62)}x` }))).toBe("allow");

    // End to end: the write tool refuses, and sub/.git never exists.
    const t = await createTestHost({
      cwd: f.ws,
      home: f.home,
      turns: [
        { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: deep, content: "x" } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
      extensions: [protectedPaths],
    });
    try {
      await t.run("go");
      expect(t.eventsOf("tool_execution_end")[0]).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(existsSync(path.join(f.ws, "sub/.git"))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it("a path longer than any system call accepts is refused at once instead of matched for minutes", () => {
    const f = createFixture();
    const policy = f.policy();
    const started = performance.now();
    for (const kind of ["read", "write"] as const) {
      // 80 KB of segments: matching every rule against them took 30 s (a write's folders: longer still).
      expect(outcome(policy.check({ kind, path: `${"a/".repeat(40_000)}x` }))).toMatch(
        /^path too long: .* refused: the path is longer than 4095 bytes/,
      );
      expect(outcome(policy.check({ kind, path: `${"é".repeat(2048)}` }))).toMatch(/^path too long: /);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(outcome(policy.check({ kind: "read", path: `${"a/".repeat(1000)}x` }))).toBe("allow");
  });
});
