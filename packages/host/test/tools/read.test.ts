import { mkdir, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

const read = builtin("read");
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
// The smallest valid PNG (1x1, transparent).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

describe("read", () => {
  it("returns a small file whole, with details", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a.txt"), "one\ntwo\n");
    const result = await run(read, { path: "a.txt" }, context(dir).ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("one\ntwo");
    expect(result.details).toMatchObject({ path: path.join(dir, "a.txt"), lines: 2, truncated: false });
  });

  it("honours offset and limit and says how to continue", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a.txt"), numbered(50));
    const result = await run(read, { path: "a.txt", offset: 10, limit: 3 }, context(dir).ctx);
    expect(textOf(result)).toBe(
      "line 10\nline 11\nline 12\n\n[showing lines 10-12 of 50; call read with offset=13 to continue]",
    );
    expect(result.details).toMatchObject({ startLine: 10, endLine: 12, truncated: false });
  });

  it("caps at 2000 lines with a marker that says exactly how to continue", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "big.txt"), numbered(5000));
    const result = await run(read, { path: "big.txt" }, context(dir).ctx);
    const text = textOf(result);
    expect(text.startsWith("line 1\n")).toBe(true);
    expect(text).toContain("\nline 2000\n");
    expect(text).not.toContain("line 2001");
    expect(text.endsWith("\n\n[truncated: showing lines 1-2000 of 5000; call read with offset=2001 to continue]")).toBe(
      true,
    );
    expect(result.details).toMatchObject({ lines: 5000, endLine: 2000, truncated: true });
  });

  it("caps at 50 KB with whole lines and a marker naming the byte limit", async () => {
    const dir = await tempDir();
    const line = "x".repeat(99);
    await writeFile(path.join(dir, "wide.txt"), `${Array.from({ length: 1000 }, () => line).join("\n")}\n`);
    const result = await run(read, { path: "wide.txt" }, context(dir).ctx);
    // 512 lines of 99 chars plus newlines is 51199 bytes: the most that fits in 51200.
    expect(textOf(result)).toMatch(
      /\n\n\[truncated: showing lines 1-512 of 1000 \(50 KB limit\); call read with offset=513 to continue\]$/,
    );
  });

  it("a single line over 50 KB is cut, and the marker says how to see the rest", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "min.js"), `${"a".repeat(60 * 1024)}\nnext\n`);
    const result = await run(read, { path: "min.js" }, context(dir).ctx);
    const text = textOf(result);
    expect(text.startsWith("a".repeat(50 * 1024))).toBe(true);
    expect(text).not.toContain("a".repeat(50 * 1024 + 1));
    expect(text).toMatch(/\[truncated: line 1 is 60 KB.*call read with offset=2 to continue after it\]$/);
  });

  it("an offset past the end is an error naming the file and its length", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a.txt"), numbered(3));
    const result = await run(read, { path: "a.txt", offset: 9 }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("offset 9 is beyond the end of a.txt, which has 3 lines.");
  });

  it("returns png/jpg/gif/webp as a base64 image block", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "dot.PNG"), PNG);
    const result = await run(read, { path: "dot.PNG" }, context(dir).ctx);
    expect(result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    expect(textOf(result)).toContain("dot.PNG");
    await writeFile(path.join(dir, "p.jpg"), PNG);
    const jpg = await run(read, { path: "p.jpg" }, context(dir).ctx);
    expect(jpg.content[1]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
  });

  it("a directory is an error that points to ls", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "src"));
    const result = await run(read, { path: "src" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("src is a directory, not a file; use ls to list it.");
  });

  it("a missing file is an error naming the path as spelled and where it resolved", async () => {
    const dir = await tempDir();
    const result = await run(read, { path: "nope.txt" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Cannot read nope.txt (${path.join(dir, "nope.txt")}): no such file or directory.`);
  });

  it("a device is an error, not an endless read", async () => {
    const result = await run(read, { path: "/dev/zero" }, context("/").ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("/dev/zero is not a regular file; read only reads files.");
  });

  it("a file too large to load is an error that says what to use instead, not a range error", async () => {
    const dir = await tempDir();
    // Sparse: 3 GiB of size, no blocks on disk. Loading it whole failed with ERR_OUT_OF_RANGE.
    await writeFile(path.join(dir, "huge.log"), "");
    await truncate(path.join(dir, "huge.log"), 3 * 1024 ** 3);
    const result = await run(read, { path: "huge.log", limit: 10 }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "huge.log is 3072 MB, larger than read loads (64 MB); use grep to find lines in it, or bash (head, tail, sed -n '100,200p') to show part of it.",
    );
  });

  it("a binary file is an error, not garbage", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    const result = await run(read, { path: "blob.bin" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^blob\.bin is a binary file/);
  });

  it("a path with a NUL byte is an error naming it", async () => {
    const dir = await tempDir();
    const result = await run(read, { path: "a\0b" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Invalid path "a\\u0000b"');
  });

  it("an empty path is an error", async () => {
    const dir = await tempDir();
    const result = await run(read, { path: "" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("the path is empty");
  });

  it("expands ~/ to the home directory", async () => {
    const home = await tempDir();
    await writeFile(path.join(home, "notes.txt"), "from home");
    vi.stubEnv("HOME", home);
    try {
      const result = await run(read, { path: "~/notes.txt" }, context("/").ctx);
      expect(textOf(result)).toBe("from home");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("an empty file says so", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "e.txt"), "");
    const result = await run(read, { path: "e.txt" }, context(dir).ctx);
    expect(textOf(result)).toBe("(e.txt is empty)");
  });

  it("rejects offset 0 at validation", () => {
    expect(read.parameters.safeParse({ path: "a", offset: 0 }).success).toBe(false);
  });
});
