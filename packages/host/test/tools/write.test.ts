import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

const write = builtin("write");

describe("write", () => {
  it("creates a file and its missing parent directories, reporting bytes written", async () => {
    const dir = await tempDir();
    const result = await run(write, { path: "a/b/c.txt", content: "héllo" }, context(dir).ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Wrote 6 bytes to a/b/c.txt");
    expect(result.details).toEqual({ path: path.join(dir, "a/b/c.txt"), bytes: 6, created: true });
    expect(await readFile(path.join(dir, "a/b/c.txt"), "utf8")).toBe("héllo");
  });

  it("overwrites an existing file whole and says what it replaced, for a viewer (details.diff)", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "f.txt"), "keep\nold content that is longer\nend\n");
    const result = await run(write, { path: path.join(dir, "f.txt"), content: "keep\nnew\nend\n" }, context("/").ctx);
    expect(await readFile(path.join(dir, "f.txt"), "utf8")).toBe("keep\nnew\nend\n");
    expect(result.details).toEqual({
      path: path.join(dir, "f.txt"),
      bytes: 13,
      diff: {
        added: 1,
        removed: 1,
        hunks: [{ oldStart: 1, newStart: 1, lines: [" keep", "-old content that is longer", "+new", " end"] }],
      },
    });
  });

  it("writes a file its owner may only write (no diff then), and gives no diff for a binary file", async () => {
    const dir = await tempDir();
    const only = path.join(dir, "w.txt");
    await writeFile(only, "before");
    await chmod(only, 0o200);
    const written = await run(write, { path: only, content: "after" }, context("/").ctx);
    await chmod(only, 0o600);
    expect(written.isError).toBeUndefined();
    expect(await readFile(only, "utf8")).toBe("after");
    if (process.getuid?.() !== 0) expect(written.details).toEqual({ path: only, bytes: 5 });
    const binary = path.join(dir, "b.bin");
    await writeFile(binary, Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    const replaced = await run(write, { path: binary, content: "text" }, context("/").ctx);
    expect(replaced.details).toEqual({ path: binary, bytes: 4 });
  });

  it("gives no diff of a file the guards' read filter denies (its old lines would reach every event subscriber)", async () => {
    const dir = await tempDir();
    const secret = path.join(dir, "key.pem");
    await writeFile(secret, "pemsecret-KEY\n");
    const { ctx } = context(dir);
    ctx.canRead = (absolutePath) => absolutePath !== secret;
    const result = await run(write, { path: "key.pem", content: "x\n" }, ctx);
    expect(result.isError).toBeUndefined();
    expect(result.details).toEqual({ path: secret, bytes: 2 });
    expect(JSON.stringify(result)).not.toContain("pemsecret");
    // A readable file keeps its diff.
    await writeFile(path.join(dir, "notes.md"), "old\n");
    const notes = await run(write, { path: "notes.md", content: "new\n" }, ctx);
    expect(JSON.stringify(notes.details)).toContain("-old");
  });

  it("a path spelled as a directory (f.txt/, dir/, f.txt/.) is refused by write, edit and read instead of acting on the file without the ending", async () => {
    // Before, write f.txt/ overwrote f.txt and write dir/ created a file named dir (the OS refuses both).
    const dir = await tempDir();
    await writeFile(path.join(dir, "f.txt"), "keep\n");
    const { ctx } = context(dir);
    const writes = await Promise.all(
      ["f.txt/", "dir/", "f.txt/."].map((p) => run(write, { path: p, content: "over" }, ctx)),
    );
    const edit = await run(builtin("edit"), { path: "f.txt/", oldText: "keep", newText: "gone" }, ctx);
    const read = await run(builtin("read"), { path: "f.txt/" }, ctx);
    for (const result of [...writes, edit, read]) expect(result.isError).toBe(true);
    expect(textOf(writes[0] as never)).toBe(
      'Invalid path "f.txt/": a path ending in "/" names a directory, and write acts on a file; drop the trailing "/".',
    );
    expect(textOf(writes[2] as never)).toContain('a path ending in "/." names a directory');
    expect(textOf(edit)).toContain("and edit acts on a file");
    expect(textOf(read)).toContain("and read acts on a file");
    expect(await readFile(path.join(dir, "f.txt"), "utf8")).toBe("keep\n");
    await expect(readFile(path.join(dir, "dir"), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("writing an empty file reports 0 bytes", async () => {
    const dir = await tempDir();
    const result = await run(write, { path: "empty", content: "" }, context(dir).ctx);
    expect(textOf(result)).toBe("Wrote 0 bytes to empty");
    const one = await run(write, { path: "one", content: "x" }, context(dir).ctx);
    expect(textOf(one)).toBe("Wrote 1 byte to one");
    expect(await readFile(path.join(dir, "empty"), "utf8")).toBe("");
  });

  it("writing onto a directory is an error naming the path", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "d"));
    const result = await run(write, { path: "d", content: "x" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Cannot write d: it is a directory.");
  });

  it("a parent that is a file is an error naming the path", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "file"), "x");
    const result = await run(write, { path: "file/child.txt", content: "x" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Cannot write file\/child\.txt/);
  });

  it("a path with a NUL byte is an error and writes nothing", async () => {
    const dir = await tempDir();
    const result = await run(write, { path: "x\0.txt", content: "x" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("NUL byte");
  });

  it("does not write when the call was aborted before its turn in the queue", async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    controller.abort();
    const result = await run(write, { path: "f.txt", content: "x" }, context(dir, controller).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Write to f.txt was aborted before it started.");
    await expect(readFile(path.join(dir, "f.txt"))).rejects.toThrow();
  });
});
