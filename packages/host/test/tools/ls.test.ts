import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

const ls = builtin("ls");

describe("ls", () => {
  it("lists entries sorted case-insensitively, dirs with '/', dotfiles included", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "b.txt"), "");
    await writeFile(path.join(dir, "A.md"), "");
    await writeFile(path.join(dir, ".env"), "");
    await mkdir(path.join(dir, "src"));
    await symlink(path.join(dir, "src"), path.join(dir, "linked"));
    const result = await run(ls, {}, context(dir).ctx);
    expect(textOf(result)).toBe([".env", "A.md", "b.txt", "linked/", "src/"].join("\n"));
    expect(result.details).toEqual({ path: dir, entries: 5, truncated: false, withheld: 0 });
  });

  it("lists the directory named by path", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "sub"));
    await writeFile(path.join(dir, "sub", "x"), "");
    const result = await run(ls, { path: "sub" }, context(dir).ctx);
    expect(textOf(result)).toBe("x");
  });

  it("caps at 500 entries with a marker", async () => {
    const dir = await tempDir();
    await Promise.all(
      Array.from({ length: 600 }, (_, i) => writeFile(path.join(dir, `f${String(i).padStart(3, "0")}`), "")),
    );
    const result = await run(ls, { path: "." }, context(dir).ctx);
    const lines = textOf(result).split("\n");
    expect(lines[0]).toBe("f000");
    expect(lines[499]).toBe("f499");
    expect(lines.at(-1)).toBe("[truncated: showing 500 of 600 entries; use find with a pattern to narrow the listing]");
    expect(result.details).toEqual({ path: dir, entries: 600, truncated: true, withheld: 0 });
  });

  it("an empty directory says so", async () => {
    const dir = await tempDir();
    const result = await run(ls, {}, context(dir).ctx);
    expect(textOf(result)).toBe("(. is an empty directory)");
  });

  it("a file is an error pointing to read", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "f.txt"), "");
    const result = await run(ls, { path: "f.txt" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("f.txt is not a directory; use read to view a file.");
  });

  it("a missing directory is an error naming the path", async () => {
    const dir = await tempDir();
    const result = await run(ls, { path: "nope" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Cannot list nope (${path.join(dir, "nope")}): no such file or directory.`);
  });
});
