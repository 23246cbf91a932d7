import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BashDetails } from "../../src/tools/index.ts";
import { call, runScenario, say } from "../helpers/scenario.ts";
import { builtin, context, eventually, isAlive, run, tempDir, textOf } from "./helpers.ts";

const bash = builtin("bash");
const leftovers: { pids: number[]; files: string[] } = { pids: [], files: [] };

afterEach(async () => {
  for (const pid of leftovers.pids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await Promise.all(leftovers.files.splice(0).map((file) => rm(file, { force: true })));
});

async function pidFrom(file: string): Promise<number> {
  const pid = Number((await readFile(file, "utf8")).trim());
  leftovers.pids.push(pid);
  return pid;
}

describe("bash", () => {
  it("returns the output of a command that exits 0", async () => {
    const dir = await tempDir();
    const result = await run(bash, { command: "echo hello; pwd" }, context(dir).ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(`hello\n${dir}\n`);
    expect(result.details).toEqual({ exitCode: 0 });
  });

  it("says (no output) when there is none", async () => {
    const result = await run(bash, { command: "true" }, context(await tempDir()).ctx);
    expect(textOf(result)).toBe("(no output)");
  });

  it("a non-zero exit is an error result with the code, stdout and stderr", async () => {
    const result = await run(bash, { command: "echo out; echo err >&2; exit 3" }, context(await tempDir()).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^(out\nerr|err\nout)\n\nCommand exited with code 3$/);
    expect(result.details).toEqual({ exitCode: 3 });
  });

  it("interleaves stdout and stderr in arrival order", async () => {
    const command = "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three";
    const result = await run(bash, { command }, context(await tempDir()).ctx);
    expect(textOf(result)).toBe("one\ntwo\nthree\n");
  });

  it("a shell killed by a signal is an error naming the signal", async () => {
    const result = await run(bash, { command: "echo before; kill -9 $$" }, context(await tempDir()).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("before\n\nCommand was killed by signal SIGKILL");
    expect(result.details).toEqual({ exitCode: null });
  });

  it("a missing working directory is an error naming it", async () => {
    const cwd = path.join(await tempDir(), "gone");
    const result = await run(bash, { command: "true" }, context(cwd).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(new RegExp(`^Could not start bash in ${cwd}: `));
  });

  it("on timeout kills the whole process group and returns the output so far", async () => {
    const dir = await tempDir();
    const command = "echo started; sleep 30 & echo $! > bg.pid; wait";
    const started = Date.now();
    const result = await run(bash, { command, timeout: 1 }, context(dir).ctx);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("started\n\nCommand timed out after 1s");
    expect(result.details).toEqual({ exitCode: null, timedOut: true });
    const pid = await pidFrom(path.join(dir, "bg.pid"));
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("on abort kills the whole process group", async () => {
    const dir = await tempDir();
    const { ctx, controller } = context(dir);
    const pending = run(bash, { command: "sleep 30 & echo $! > bg.pid; wait" }, ctx);
    expect(await eventually(() => existsSync(path.join(dir, "bg.pid")))).toBe(true);
    const pid = await pidFrom(path.join(dir, "bg.pid"));
    expect(isAlive(pid)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("(no output)\n\nCommand aborted");
    expect(result.details).toEqual({ exitCode: null, aborted: true });
    expect(await eventually(() => !isAlive(pid))).toBe(true);
  });

  it("does not start when already aborted", async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    controller.abort();
    const result = await run(bash, { command: "touch ran" }, context(dir, controller).ctx);
    expect(result.isError).toBe(true);
    expect(existsSync(path.join(dir, "ran"))).toBe(false);
  });

  it("returns shortly after the shell exits even if a background job holds the pipes, and leaves it running", async () => {
    const dir = await tempDir();
    const started = Date.now();
    const result = await run(bash, { command: "sleep 20 & echo $! > bg.pid; echo done" }, context(dir).ctx);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(textOf(result)).toBe("done\n");
    const pid = await pidFrom(path.join(dir, "bg.pid"));
    expect(isAlive(pid)).toBe(true);
  });

  it("a background job outlives its command but not the run: the host kills what is left when run() ends (SPEC §6)", async () => {
    const dir = await tempDir();
    const bg = (id: string, file: string) =>
      call(id, "bash", { command: `sleep 30 > /dev/null 2>&1 & echo $! > ${file}; echo started` });
    const { result, events } = await runScenario({
      cwd: dir,
      turns: [
        { content: [bg("A", "a.pid")] },
        // The next call of the same run still finds it running.
        { content: [call("B", "bash", { command: 'kill -0 "$(cat a.pid)" && echo alive' })] },
        { content: [bg("C", "c.pid")] },
        say("done"),
      ],
    });
    expect(result.stopReason).toBe("stop");
    const texts = events.flatMap((e) => (e.type === "tool_execution_end" ? [textOf(e.result as never)] : []));
    expect(texts[1]).toBe("alive\n");
    for (const file of ["a.pid", "c.pid"]) {
      const pid = await pidFrom(path.join(dir, file));
      expect(await eventually(() => !isAlive(pid))).toBe(true);
    }
  });

  it("reports progress with the output so far", async () => {
    const { ctx, updates } = context(await tempDir());
    await run(bash, { command: "echo tick1; sleep 0.3; echo tick2; sleep 0.3" }, ctx);
    const texts = updates.map((u) => (u.content[0]?.type === "text" ? u.content[0].text : ""));
    expect(texts).toEqual(["tick1\n", "tick1\ntick2\n"]);
  });

  it("a command that prints and exits within the interval reports no progress (the result follows at once)", async () => {
    const { ctx, updates } = context(await tempDir());
    const result = await run(bash, { command: "echo A" }, ctx);
    expect(textOf(result)).toBe("A\n");
    expect(updates).toEqual([]);
  });

  it("throttles progress to about one update per 100 ms", async () => {
    const { ctx, updates } = context(await tempDir());
    const started = Date.now();
    await run(bash, { command: "for i in $(seq 1 15); do echo $i; sleep 0.01; done" }, ctx);
    const elapsed = Date.now() - started;
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
  });

  it("keeps the tail of long output, marks it at the top and saves the full output", async () => {
    const result = await run(bash, { command: "seq 1 5000" }, context(await tempDir()).ctx);
    const details = result.details as BashDetails;
    expect(details.truncated).toBe(true);
    expect(details.fullOutputPath).toBeDefined();
    leftovers.files.push(details.fullOutputPath!);
    const [marker, first, ...rest] = textOf(result).split("\n");
    expect(marker).toMatch(/^\[truncated: showing the last 2000 lines of 5000 \(.* KB\); full output: .*\.log\]$/);
    expect(marker).toContain(details.fullOutputPath!);
    expect(first).toBe("3001");
    expect(rest.at(-1)).toBe("5000");
    const full = await readFile(details.fullOutputPath!, "utf8");
    expect(full).toBe(`${Array.from({ length: 5000 }, (_, i) => i + 1).join("\n")}\n`);
  });

  it("keeps memory bounded on huge output: the tail and the full file are still exact", async () => {
    const result = await run(bash, { command: "seq 1 200000" }, context(await tempDir()).ctx);
    const details = result.details as BashDetails;
    leftovers.files.push(details.fullOutputPath!);
    const lines = textOf(result).split("\n");
    expect(lines[0]).toMatch(/^\[truncated: showing the last \d+ lines of 200000 /);
    expect(lines.at(-1)).toBe("200000");
    expect(Buffer.byteLength(lines.slice(1).join("\n"))).toBeLessThanOrEqual(50 * 1024);
    const full = await readFile(details.fullOutputPath!, "utf8");
    expect(full.length).toBe(Array.from({ length: 200000 }, (_, i) => `${i + 1}\n`).join("").length);
    expect(full.endsWith("199999\n200000\n")).toBe(true);
  });

  it("a single line longer than 50 KB keeps its last 50 KB", async () => {
    const result = await run(bash, { command: "head -c 300000 /dev/zero | tr '\\0' a" }, context(await tempDir()).ctx);
    const details = result.details as BashDetails;
    leftovers.files.push(details.fullOutputPath!);
    const [marker, tail] = textOf(result).split("\n");
    expect(marker).toMatch(/^\[truncated: showing the last 50 KB of 293 KB; full output: /);
    expect(tail).toBe("a".repeat(50 * 1024));
  });
});
