import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedMutationQueue } from "../../src/tools/builtin-tools.ts";
import { createBuiltinTools, FileMutationQueue } from "../../src/tools/index.ts";
import { resolveRealPath } from "../../src/tools/real-path.ts";
import { builtin, context, deferred, run, settle, tempDir } from "./helpers.ts";

describe("FileMutationQueue", () => {
  it("serialises two spellings of the same file (a symlink alias) in enqueue order", async () => {
    const dir = await tempDir();
    const real = path.join(dir, "real.txt");
    const alias = path.join(dir, "alias.txt");
    await writeFile(real, "");
    await symlink(real, alias);
    const queue = new FileMutationQueue();
    const hold = deferred();
    const log: string[] = [];
    const first = queue.run(alias, async (target) => {
      log.push(`first start ${path.basename(target)}`);
      await hold.promise;
      log.push("first end");
    });
    const second = queue.run(real, async (target) => {
      log.push(`second start ${path.basename(target)}`);
    });
    await settle();
    expect(log).toEqual(["first start real.txt"]);
    hold.resolve();
    await Promise.all([first, second]);
    expect(log).toEqual(["first start real.txt", "first end", "second start real.txt"]);
  });

  it("runs mutations of different files concurrently", async () => {
    const dir = await tempDir();
    const queue = new FileMutationQueue();
    const hold = deferred();
    let firstDone = false;
    const first = queue.run(path.join(dir, "a.txt"), async () => {
      await hold.promise;
      firstDone = true;
    });
    const second = await queue.run(path.join(dir, "b.txt"), async () => "b done");
    expect(second).toBe("b done");
    expect(firstDone).toBe(false);
    hold.resolve();
    await first;
  });

  it("a failing mutation rejects its own caller and does not block the next", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "a.txt");
    const queue = new FileMutationQueue();
    const failing = queue.run(file, async () => {
      throw new Error("disk on fire");
    });
    const next = queue.run(file, async () => "ran");
    await expect(failing).rejects.toThrow("disk on fire");
    await expect(next).resolves.toBe("ran");
    expect(queue.pendingFiles).toBe(0);
  });

  it("keys a file that does not exist yet by its deepest existing ancestor's real path", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "real"));
    await symlink(path.join(dir, "real"), path.join(dir, "link"));
    expect(resolveRealPath(path.join(dir, "link/new/file.txt"))).toBe(path.join(dir, "real/new/file.txt"));
  });

  it("keys a dangling symlink by the file a write through it would create", async () => {
    const dir = await tempDir();
    await symlink(path.join(dir, "target.txt"), path.join(dir, "dangling.txt"));
    expect(resolveRealPath(path.join(dir, "dangling.txt"))).toBe(path.join(dir, "target.txt"));
  });

  it("write waits for a held mutation of the same real file", async () => {
    const dir = await tempDir();
    const queue = new FileMutationQueue();
    const hold = deferred();
    const held = queue.run(path.join(dir, "f.txt"), () => hold.promise);
    const { ctx } = context(dir);
    const writing = run(builtin("write", queue), { path: "./sub/../f.txt", content: "new" }, ctx);
    await settle();
    await expect(readFile(path.join(dir, "f.txt"), "utf8")).rejects.toThrow();
    hold.resolve();
    await held;
    expect((await writing).isError).toBeUndefined();
    expect(await readFile(path.join(dir, "f.txt"), "utf8")).toBe("new");
  });

  it("two tool sets created without a queue share the process-wide one", async () => {
    const dir = await tempDir();
    const hold = deferred();
    const held = sharedMutationQueue.run(path.join(dir, "f.txt"), () => hold.promise);
    const write = createBuiltinTools().find((t) => t.name === "write")!;
    const { ctx } = context(dir);
    const writing = write.execute({ path: "f.txt", content: "x" }, ctx);
    await settle();
    await expect(readFile(path.join(dir, "f.txt"), "utf8")).rejects.toThrow();
    hold.resolve();
    await Promise.all([held, writing]);
    expect(await readFile(path.join(dir, "f.txt"), "utf8")).toBe("x");
  });
});
