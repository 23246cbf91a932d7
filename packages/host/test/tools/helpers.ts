import { readFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnyToolDefinition, ToolContext, ToolProgress, ToolResult } from "@gatehouse/sdk";
import { afterEach } from "vitest";
import { GREP_MATCH_BUDGET_MS, setDefaultMatchBudget } from "../../src/tools/bounded-match.ts";
import { createBuiltinTools, FileMutationQueue } from "../../src/tools/index.ts";

const created: string[] = [];

/**
 * A fresh temp dir removed after the test; realpath'd so paths compare equal to what tools report.
 */
export async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "gatehouse-tools-")));
  created.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A tool context as the loop builds it, recording every progress update. */
export function context(cwd: string, controller = new AbortController()) {
  const updates: ToolProgress[] = [];
  const ctx: ToolContext = {
    toolCallId: "call-1",
    signal: controller.signal,
    onUpdate: (partial) => updates.push(partial),
    cwd,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  };
  return { ctx, updates, controller };
}

/** One built-in by name, from a tool set with its own mutation queue unless one is given. */
export function builtin(name: string, queue = new FileMutationQueue()): AnyToolDefinition {
  const tool = createBuiltinTools({ mutationQueue: queue }).find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no built-in ${name}`);
  return tool;
}

/** Validates `args` through the tool's schema first, as the loop does, then executes. */
export async function run(
  tool: AnyToolDefinition,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const parsed = tool.parameters.parse(args);
  return tool.execute(parsed, ctx);
}

/** The text of the result's first text block. */
export function textOf(result: ToolResult): string {
  const block = result.content.find((c) => c.type === "text");
  return block?.type === "text" ? block.text : "";
}

/**
 * True while `pid` is a live process. A zombie counts as gone: it has been killed, but in a
 * container whose PID 1 does not reap orphans it stays in the process table forever.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it is true or `timeoutMs` passes; returns the last answer. */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/** A promise the test resolves by hand: ordering without sleeps. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Lets every already-queued promise callback and I/O callback run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `body` with grep's and find's match budget at 0.5 s instead of 10 s, so a test of a
 * catastrophic pattern waits a fraction of a second for the budget to run out.
 */
export async function withBudget<T>(body: () => Promise<T>): Promise<T> {
  setDefaultMatchBudget(500);
  try {
    return await body();
  } finally {
    setDefaultMatchBudget(GREP_MATCH_BUDGET_MS);
  }
}
