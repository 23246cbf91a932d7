import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { defineExtension } from "@gatehouse/sdk";
import { createTestHost, toolCall, turn } from "@gatehouse/testing";
import { describe, expect, it } from "vitest";

/**
 * Swaps `playground` for a symlink to `target` after protected-paths allowed the call and before
 * the tool runs: an enforce handler loaded after the guard runs exactly in that window.
 */
function swapper(dir: string, target: string) {
  return defineExtension({
    name: "swapper",
    setup: (api) =>
      api.on(
        "tool_call",
        () => {
          renameSync(path.join(dir, "playground"), path.join(dir, "playground-old"));
          symlinkSync(target, path.join(dir, "playground"));
        },
        { stage: "enforce" },
      ),
  });
}

async function runWrite(dir: string, extensions: ReturnType<typeof defineExtension>[], tool: "write" | "edit") {
  const args =
    tool === "write"
      ? { path: "playground/config", content: "owned" }
      : { path: "playground/config", oldText: "a", newText: "owned" };
  const t = await createTestHost({ cwd: dir, extensions, turns: [turn(toolCall("A", tool, args)), turn("done")] });
  try {
    await t.run("go");
    return t.eventsOf("tool_execution_end")[0];
  } finally {
    await t.close();
  }
}

describe("time of check to time of use", () => {
  for (const tool of ["write", "edit"] as const) {
    it(`${tool}: a symlink swapped in after the policy check is refused under the mutation queue`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "pp-toctou-"));
      mkdirSync(path.join(dir, "playground"));
      writeFileSync(path.join(dir, "playground", "config"), "a");
      mkdirSync(path.join(dir, ".git"));
      writeFileSync(path.join(dir, ".git", "config"), "a");
      const end = await runWrite(dir, [protectedPaths, swapper(dir, path.join(dir, ".git"))], tool);
      expect(end).toMatchObject({ outcome: "failed", isError: true });
      expect(JSON.stringify(end?.result)).toContain("not to the file the policy check allowed");
      expect(readFileSync(path.join(dir, ".git", "config"), "utf8")).toBe("a");
    });
  }

  it("without the swap the same write goes through (the pin matches the built-in's resolution)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pp-toctou-"));
    mkdirSync(path.join(dir, "playground"));
    const end = await runWrite(dir, [protectedPaths], "write");
    expect(end).toMatchObject({ outcome: "executed" });
    expect(readFileSync(path.join(dir, "playground", "config"), "utf8")).toBe("owned");
  });

  it("a new file under a new directory and under a symlinked directory inside the workspace still writes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pp-toctou-"));
    mkdirSync(path.join(dir, "real"));
    symlinkSync(path.join(dir, "real"), path.join(dir, "playground"));
    const end = await runWrite(dir, [protectedPaths], "write");
    expect(end).toMatchObject({ outcome: "executed" });
    expect(existsSync(path.join(dir, "real", "config"))).toBe(true);
  });
});
