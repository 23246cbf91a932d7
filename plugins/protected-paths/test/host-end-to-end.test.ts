import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { defineTool } from "@gatehouse/sdk";
import { createTestHost, type TestHost } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
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

/** A custom tool that declares no effects: the policy cannot know what it touches. */
const mystery = defineTool({
  name: "mystery",
  description: "Does something",
  parameters: z.object({}),
  execute: () => ({ content: [{ type: "text", text: "did something" }] }),
});

const hosts: TestHost[] = [];

async function run(cwd: string, config: unknown, calls: ReturnType<typeof call>[], env: NodeJS.ProcessEnv = {}) {
  const t = await createTestHost({
    cwd,
    home: path.join(cwd, "..", "gh-home"),
    turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }],
    extensions: [protectedPaths],
    tools: [saveNote, mystery],
    config: { "protected-paths": config },
    env,
  });
  hosts.push(t);
  await t.run("go");
  const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
  return { host: t.host, events: t.events, ends, t };
}

describe("protected-paths in a real host", () => {
  afterEach(async () => {
    for (const t of hosts.splice(0)) await t.close();
  });

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
    const { ends } = await run(f.ws, { denyWrite: ["notes/**"], bash: "analyze" }, [
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

  it.skipIf(process.platform !== "linux")(
    "bash runs in the sandbox built from the policy: what the analysis cannot see still cannot leak or land",
    async () => {
      const f = createFixture();
      writeFileSync(path.join(f.ws, ".env"), "API_KEY=never-shown\n");
      const { ends } = await run(f.ws, {}, [
        call("A", "bash", { command: "F=.env; cat $F; echo PWNED > $F; echo ok > playground/out.txt" }),
      ]);
      const a = ends.get("A");
      expect(a).toMatchObject({ outcome: "executed" });
      expect(JSON.stringify(a?.result)).not.toContain("never-shown");
      expect(JSON.stringify(a?.result)).toContain("Read-only file system");
      expect(readFileSync(path.join(f.ws, ".env"), "utf8")).toBe("API_KEY=never-shown\n");
      expect(readFileSync(path.join(f.ws, "playground/out.txt"), "utf8")).toBe("ok\n");
      const second = await run(f.ws, {}, [call("B", "bash", { command: "G=.env.production; echo PWNED > $G" })]);
      const b = second.ends.get("B");
      expect(b).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
      expect(b?.reason).toContain("(default denyWrite .env.*)");
      expect(existsSync(path.join(f.ws, ".env.production"))).toBe(false);
    },
  );

  it("where no sandbox can start, bash is refused with the command that installs one; never run unconfined", async () => {
    const f = createFixture();
    const { ends } = await run(f.ws, {}, [call("A", "bash", { command: "echo ran > ran.txt" })], {
      GATEHOUSE_BWRAP: path.join(f.base, "missing-bwrap"),
    });
    expect(ends.get("A")).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(ends.get("A")?.reason).toContain("apt-get install -y bubblewrap");
    expect(existsSync(path.join(f.ws, "ran.txt"))).toBe(false);
    const analyzed = await run(f.ws, { bash: "analyze" }, [call("B", "bash", { command: "echo ran > ran.txt" })], {
      GATEHOUSE_BWRAP: path.join(f.base, "missing-bwrap"),
    });
    expect(analyzed.ends.get("B")).toMatchObject({ outcome: "executed" });
  });

  it("a tool that declares no effects is refused by default, and runs with undeclaredEffects: allow", async () => {
    const f = createFixture();
    const refused = await run(f.ws, {}, [call("A", "mystery", {})]);
    expect(refused.ends.get("A")?.reason).toBe(
      'Call to tool "mystery" refused: it declares no effects, so the paths it touches cannot be checked; declare effects on the tool (undeclared effects).',
    );
    const allowed = await run(f.ws, { undeclaredEffects: "allow" }, [call("B", "mystery", {})]);
    expect(allowed.ends.get("B")).toMatchObject({ outcome: "executed" });
  });

  it("grep, find and ls withhold what the policy denies; read refuses it", async () => {
    const f = createFixture();
    writeFileSync(path.join(f.ws, ".env"), "API_KEY=never-shown\n");
    const { ends } = await run(f.ws, {}, [
      call("G", "grep", { pattern: "API_KEY" }),
      call("L", "ls", {}),
      call("R", "read", { path: ".env" }),
    ]);
    expect(JSON.stringify([...ends.values()])).not.toContain("never-shown");
    expect(JSON.stringify(ends.get("G")?.result)).toContain("withheld by the path policy");
    expect(JSON.stringify(ends.get("L")?.result)).not.toContain('".env\\n');
    expect(ends.get("R")).toMatchObject({ outcome: "blocked" });
  });

  it("a misspelled configuration field stops the host (a required guard), naming the field", async () => {
    const f = createFixture();
    const failure = run(f.ws, { denyWrites: ["x"] }, []);
    await expect(failure).rejects.toMatchObject({ code: "GH_GUARD_FAILED" });
    await expect(failure).rejects.toThrow(/required guard "protected-paths"[\s\S]*denyWrites/);
  });
});
