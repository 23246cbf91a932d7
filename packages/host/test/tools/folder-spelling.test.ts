import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

describe("a file tool given a spelling that names a folder", () => {
  it.each([
    ["write", { path: "new/", content: "x" }, 'Cannot write "new/": the path ends in "/", so it names a folder'],
    ["write", { path: "sub/.", content: "x" }, 'Cannot write "sub/.": the path ends in ".", so it names a folder'],
    ["edit", { path: "f.txt/", oldText: "a", newText: "b" }, 'Cannot edit "f.txt/": the path ends in "/"'],
    ["read", { path: "f.txt/" }, 'Cannot read "f.txt/": the path ends in "/"'],
    ["read", { path: "sub/.." }, 'Cannot read "sub/..": the path ends in ".."'],
  ] as const)("%s %j is refused, naming the path, and no file is created or changed", async (name, args, message) => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "f.txt"), "a\n");
    const result = await run(builtin(name), args, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(message);
    expect((await readdir(dir)).sort()).toEqual(["f.txt"]);
  });
});
