import { type ChildProcess, spawn } from "node:child_process";
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AnyToolDefinition,
  defineExtension,
  type GatehouseEvent,
  type ToolExecutionEndEvent,
} from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createHost } from "../../src/host/create-host.ts";
import type { HostOptions } from "../../src/host/types.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { createBuiltinTools } from "../../src/tools/index.ts";
import { call, latch, quietLogger, tempDir } from "../helpers/scenario.ts";

// These runs load protected-paths by name from the project's settings, as a user enables it. Bash
// runs with `"bash": "allow"` so the link it makes is made whatever confinement bash has.

/** A project with a protected `.git/hooks`, a `.env`, a `playground` folder, and a folder outside it. */
function project(config: Record<string, unknown> = {}) {
  const root = realpathSync(tempDir("gh-race-"));
  const dir = join(root, "project");
  const outside = join(root, "outside");
  mkdirSync(join(dir, ".git", "hooks"), { recursive: true });
  mkdirSync(join(dir, ".gatehouse"));
  mkdirSync(join(dir, "playground"));
  mkdirSync(outside);
  writeFileSync(join(outside, "conf"), "outside\n");
  writeFileSync(join(dir, ".env"), "API_KEY=s3cret\n");
  const settings = { extensions: ["@gatehouse/protected-paths"], config: { "protected-paths": config } };
  writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify(settings));
  return { dir, outside, home: tempDir("gh-race-home-"), hooks: join(dir, ".git", "hooks") };
}

type Project = ReturnType<typeof project>;

async function runCalls(p: Project, calls: unknown[], extra: Pick<HostOptions, "tools" | "extensions"> = {}) {
  const events: GatehouseEvent[] = [];
  const host = await createHost({
    cwd: p.dir,
    model: createScriptedModel({ turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }] } as never),
    discover: true,
    env: { GATEHOUSE_HOME: p.home },
    logger: quietLogger,
    onEvent: (e) => events.push(e),
    ...extra,
  });
  expect(host.extensions().find((e) => e.name === "protected-paths")?.status).toBe("loaded");
  await host.run("go");
  await host.close();
  const ends = events.filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end");
  return { events, ends, end: (id: string) => ends.find((e) => e.toolCallId === id) };
}

/**
 * The built-in `name` under its own name, running only once `gate` opens: the guards check it in
 * preflight like any call, and it then acts after the other calls of its batch did (no timers).
 */
function gated(name: "write" | "edit" | "read", gate: Promise<void>): AnyToolDefinition {
  const builtin = createBuiltinTools().find((t) => t.name === name) as AnyToolDefinition;
  return {
    ...builtin,
    execute: async (args, ctx) => {
      await gate;
      return builtin.execute(args, ctx);
    },
  };
}

/** A latch opened when the call `id` has ended. */
function afterCall(id: string) {
  const l = latch();
  const extension = defineExtension({
    name: "after-call",
    setup: (api) =>
      api.on("tool_execution_end", (event) => {
        if (event.toolCallId === id) l.open();
      }),
  });
  return { gate: l.promise, extension };
}

describe("check equals use: links made in the same parallel batch", () => {
  it("bash links a folder to a place outside the workspace, a write through it lands nowhere outside", async () => {
    const p = project({ bash: "allow" });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [call("L", "bash", { command: "ln -s ../outside link" }), call("W", "write", { path: "link/new", content: "x" })],
      { tools: [gated("write", gate)], extensions: [extension] },
    );
    expect(end("L")).toMatchObject({ outcome: "executed" });
    expect(end("W")).toMatchObject({ outcome: "failed", isError: true });
    expect(JSON.stringify(end("W")?.result)).toContain("not to the file the policy check allowed");
    expect(readdirSync(p.outside)).toEqual(["conf"]);
  });

  it("twenty link-then-write pairs racing freely in one batch: nothing lands outside, whatever the order", async () => {
    const p = project({ bash: "allow" });
    const calls = Array.from({ length: 20 }, (_, i) => [
      call(`L${i}`, "bash", { command: `ln -s ../outside l${i}` }),
      call(`W${i}`, "write", { path: `l${i}/new${i}`, content: "x" }),
    ]).flat();
    const { ends } = await runCalls(p, calls);
    expect(ends).toHaveLength(40);
    expect(readdirSync(p.outside)).toEqual(["conf"]);
  });

  it("bash links a folder to .git/hooks, a write through it does not create a hook", async () => {
    const p = project({ bash: "allow" });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [
        call("L", "bash", { command: "ln -s .git/hooks tools" }),
        call("W", "write", { path: "tools/pre-commit", content: "#!/bin/sh\necho owned\n" }),
      ],
      { tools: [gated("write", gate)], extensions: [extension] },
    );
    expect(end("W")).toMatchObject({ outcome: "failed" });
    expect(readdirSync(p.hooks)).toEqual([]);
  });

  it("bash links a file name to a file outside, an edit through it leaves that file alone", async () => {
    const p = project({ bash: "allow" });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [
        call("L", "bash", { command: "ln -s ../outside/conf settings.conf" }),
        call("E", "edit", { path: "settings.conf", oldText: "outside", newText: "owned" }),
      ],
      { tools: [gated("edit", gate)], extensions: [extension] },
    );
    expect(end("E")).toMatchObject({ outcome: "failed" });
    expect(readFileSync(join(p.outside, "conf"), "utf8")).toBe("outside\n");
  });

  it("bash links a new name to .env (denied for reading), a read of that name does not show the secret", async () => {
    const p = project({ bash: "allow", denyRead: [".env"] });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [call("L", "bash", { command: "ln -s .env notes.txt" }), call("R", "read", { path: "notes.txt" })],
      { tools: [gated("read", gate)], extensions: [extension] },
    );
    expect(end("R")).toMatchObject({ outcome: "failed", isError: true });
    expect(JSON.stringify(end("R")?.result)).not.toContain("s3cret");
    expect(JSON.stringify(end("R")?.result)).toContain("nothing was read");
  });
});

describe("check equals use: hard links made in the same parallel batch", () => {
  it("bash hard-links a new name to .env (denied for reading): a read of that name is refused", async () => {
    const p = project({ bash: "allow", denyRead: [".env"] });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [call("L", "bash", { command: "ln .env notes.txt" }), call("R", "read", { path: "notes.txt" })],
      { tools: [gated("read", gate)], extensions: [extension] },
    );
    expect(end("L")).toMatchObject({ outcome: "executed" });
    expect(end("R")).toMatchObject({ outcome: "failed" });
    expect(JSON.stringify(end("R")?.result)).toContain("changed after the policy check (it did not exist then");
    expect(JSON.stringify(end("R")?.result)).not.toContain("s3cret");
  });

  it("bash renames .env over a name that was checked as a plain file: a read of that name is refused", async () => {
    const p = project({ bash: "allow", denyRead: [".env"] });
    writeFileSync(join(p.dir, "notes.txt"), "hello\n");
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [call("L", "bash", { command: "mv -f .env notes.txt" }), call("R", "read", { path: "notes.txt" })],
      { tools: [gated("read", gate)], extensions: [extension] },
    );
    expect(end("L")).toMatchObject({ outcome: "executed" });
    expect(JSON.stringify(end("R")?.result)).toContain("changed after the policy check (it was another file then");
    expect(JSON.stringify(end("R")?.result)).not.toContain("s3cret");
  });

  it("bash hard-links a checked name to a file outside: a write to that name leaves the outside file alone", async () => {
    const p = project({ bash: "allow" });
    const { gate, extension } = afterCall("L");
    const { end } = await runCalls(
      p,
      [
        call("L", "bash", { command: "ln ../outside/conf conf" }),
        call("W", "write", { path: "conf", content: "owned" }),
      ],
      { tools: [gated("write", gate)], extensions: [extension] },
    );
    expect(end("W")).toMatchObject({ outcome: "failed" });
    expect(readFileSync(join(p.outside, "conf"), "utf8")).toBe("outside\n");
  });

  it("a file that already had several links when it was checked is read as usual", async () => {
    const p = project();
    writeFileSync(join(p.dir, "shared.txt"), "shared\n");
    linkSync(join(p.dir, "shared.txt"), join(p.dir, "alias.txt"));
    const { end } = await runCalls(p, [call("R", "read", { path: "alias.txt" })]);
    expect(end("R")).toMatchObject({ outcome: "executed" });
    expect(JSON.stringify(end("R")?.result)).toContain("shared");
  });
});

const swappers: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(swappers.splice(0).map(stop));
});

/** Kills a swapper and waits until it has exited, so the tree stays still afterwards. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  return exited;
}

/**
 * Starts a process that swaps `dir/playground` for a symlink to `target` and back until killed,
 * holding each state for `holdMs` (0: as fast as it can); resolves once it has swapped once.
 */
function startSwapper(dir: string, target: string, holdMs: number): Promise<ChildProcess> {
  const code = `
    const fs = require("node:fs");
    const [dir, target, hold] = process.argv.slice(1);
    const live = dir + "/playground", parked = dir + "/playground-real";
    const pause = new Int32Array(new SharedArrayBuffer(4));
    let n = 0;
    for (;;) {
      try { fs.renameSync(live, parked); fs.symlinkSync(target, live); } catch {}
      if (+hold > 0) Atomics.wait(pause, 0, 0, +hold);
      try { fs.unlinkSync(live); fs.renameSync(parked, live); } catch {}
      if (+hold > 0) Atomics.wait(pause, 0, 0, +hold);
      if (++n === 1) process.stdout.write("swapping\\n");
    }`;
  const args = ["-e", code, dir, target, String(holdMs)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  swappers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once("data", () => resolve(child));
    child.once("error", reject);
  });
}

describe("check equals use: a folder swapped for a link while writes run", () => {
  it.each([
    ["as fast as it can", 0],
    ["holding each state for 0.3 ms", 0.3],
  ])(
    "playground swapped for a link to .git/hooks and back (%s) during a burst of 2000 writes: none lands in .git/hooks",
    async (_name, holdMs) => {
      const p = project();
      const writes = Array.from({ length: 2000 }, (_, i) =>
        call(`w${i}`, "write", { path: `playground/f${i}`, content: `#!/bin/sh\necho owned ${i}\n` }),
      );
      // The swapping runs for the whole batch: it races the guards' checks and every check-to-use gap.
      await startSwapper(p.dir, p.hooks, holdMs);
      const { ends } = await runCalls(p, writes);
      await Promise.all(swappers.splice(0).map(stop));
      expect(readdirSync(p.hooks)).toEqual([]);
      const byOutcome = (outcome: string) => ends.filter((e) => e.outcome === outcome);
      // Every write was refused by the guard (it saw the link), failed saying what changed, or landed
      // in the real folder wherever the swapper left it.
      expect(byOutcome("executed").length + byOutcome("failed").length + byOutcome("blocked").length).toBe(2000);
      expect(byOutcome("failed").length + byOutcome("blocked").length).toBeGreaterThan(0);
      for (const e of byOutcome("failed")) expect(JSON.stringify(e.result)).not.toContain("Wrote");
      const realFolders = ["playground", "playground-real"]
        .map((name) => join(p.dir, name))
        .filter((folder) => lstatSync(folder, { throwIfNoEntry: false })?.isDirectory());
      expect(realFolders.flatMap((folder) => readdirSync(folder)).length).toBe(byOutcome("executed").length);
    },
    120_000,
  );
});
