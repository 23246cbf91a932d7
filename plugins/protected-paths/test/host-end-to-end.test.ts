import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { defineTool, type GatehouseEvent, type ToolExecutionEndEvent } from "@gatehouse/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createHost } from "../../../packages/host/src/index.ts";
import { createScriptedModel } from "../../../packages/host/src/model/index.ts";
import protectedPaths from "../src/index.ts";
import { createFixture } from "./helpers/fixture.ts";

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});

/** A custom tool that writes wherever it is told, declaring the write as its effect. */
const saveNote = defineTool({
  name: "save_note",
  description: "Save a note",
  parameters: z.object({ file: z.string() }),
  effects: (args) => [{ kind: "write", path: args.file }],
  execute: () => ({ content: [{ type: "text", text: "saved" }] }),
});

async function run(cwd: string, config: unknown, calls: ReturnType<typeof call>[]) {
  const events: GatehouseEvent[] = [];
  const host = await createHost({
    cwd,
    model: createScriptedModel({ turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }] }),
    extensions: [protectedPaths],
    tools: [saveNote],
    config: { "protected-paths": config },
    onEvent: (event) => events.push(event),
  });
  await host.run("go");
  const ends = new Map(
    events
      .filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end")
      .map((e) => [e.toolCallId, e] as const),
  );
  return { host, events, ends };
}

describe("protected-paths in a real host", () => {
  beforeEach(() => vi.stubEnv("GATEHOUSE_LOG_LEVEL", "silent"));
  afterEach(() => vi.unstubAllEnvs());

  it("blocks the write to .env (the file never appears) and lets the playground write through", async () => {
    const f = createFixture();
    const envFile = path.join(f.ws, ".env");
    rmSync(envFile);
    const { ends, host } = await run(f.ws, {}, [
      call("A", "write", { path: ".env", content: "SECRET=1" }),
      call("B", "write", { path: "playground/policy-allowed.txt", content: "ok" }),
    ]);
    expect(host.extensions().find((e) => e.name === "protected-paths")?.status).toBe("loaded");
    const blocked = ends.get("A");
    expect(blocked).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths", isError: true });
    expect(blocked?.reason).toBe(
      'Write to ".env" refused: .env files hold secrets and are protected (default denyWrite .env).',
    );
    expect(JSON.stringify(blocked?.result)).not.toContain("SECRET");
    expect(existsSync(envFile)).toBe(false);
    expect(ends.get("B")).toMatchObject({ outcome: "executed", isError: false });
    expect(readFileSync(path.join(f.ws, "playground/policy-allowed.txt"), "utf8")).toBe("ok");
  });

  it("checks every tool by its effects: bash, edit and a custom tool, with the configured policy", async () => {
    const f = createFixture();
    const { ends } = await run(f.ws, { denyWrite: ["notes/**"] }, [
      call("A", "bash", { command: "echo X=1 > .env" }),
      call("B", "edit", { path: ".git/config", oldText: "x", newText: "y" }),
      call("C", "save_note", { file: "notes/today.md" }),
      call("D", "save_note", { file: "playground/today.md" }),
    ]);
    expect(ends.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(ends.get("B")?.reason).toContain("(default denyWrite .git/config)");
    expect(ends.get("C")?.reason).toContain("(config denyWrite notes/**)");
    expect(ends.get("D")).toMatchObject({ outcome: "executed" });
    expect(readFileSync(path.join(f.ws, ".env"), "utf8")).toBe("x");
    expect(readFileSync(path.join(f.ws, ".git/config"), "utf8")).toBe("x");
  });

  it("a misspelled configuration field is a load error naming the field", async () => {
    const f = createFixture();
    const { host } = await run(f.ws, { denyWrites: ["x"] }, []);
    const record = host.extensions().find((e) => e.name === "protected-paths");
    expect(record?.status).not.toBe("loaded");
    expect(record?.errors.join("\n")).toContain("denyWrites");
    expect(record?.errors.join("\n")).toContain("protected-paths");
  });
});
