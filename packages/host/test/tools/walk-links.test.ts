import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openChecked } from "../../src/tools/open-checked.ts";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

describe("walks never follow links out of the searched directory", () => {
  it("grep does not read a file a symlink points at outside the tree, and does read one inside", async () => {
    const outside = await tempDir();
    const dir = await tempDir();
    await writeFile(path.join(outside, "secret.txt"), "TOKEN outside\n");
    await writeFile(path.join(dir, "inside.txt"), "TOKEN inside\n");
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "out-link.txt"));
    await symlink(path.join(dir, "inside.txt"), path.join(dir, "in-link.txt"));
    const result = await run(builtin("grep"), { pattern: "TOKEN" }, context(dir).ctx);
    expect(textOf(result)).toBe(["in-link.txt:1: TOKEN inside", "inside.txt:1: TOKEN inside"].join("\n"));
  });

  it("a file named explicitly is searched through its link (the path was checked as given)", async () => {
    const outside = await tempDir();
    const dir = await tempDir();
    await writeFile(path.join(outside, "notes.txt"), "TOKEN outside\n");
    await symlink(path.join(outside, "notes.txt"), path.join(dir, "notes.txt"));
    const result = await run(builtin("grep"), { pattern: "TOKEN", path: "notes.txt" }, context(dir).ctx);
    expect(textOf(result)).toBe("notes.txt:1: TOKEN outside");
  });
});

describe("openChecked acts on the file it opened", () => {
  it("refuses a file whose real path lies outside `within`, and one the filter refuses by its real path", async () => {
    const outside = await tempDir();
    const dir = await tempDir();
    await writeFile(path.join(outside, "x.txt"), "x");
    await writeFile(path.join(dir, "y.txt"), "y");
    await symlink(path.join(outside, "x.txt"), path.join(dir, "link.txt"));
    expect(await openChecked(path.join(dir, "link.txt"), { within: dir })).toEqual({ refused: "outside" });
    const seen: string[] = [];
    const filtered = await openChecked(path.join(dir, "link.txt"), {
      canRead: (p) => {
        seen.push(p);
        return false;
      },
    });
    expect(filtered).toEqual({ refused: "withheld" });
    expect(seen).toEqual([path.join(outside, "x.txt")]);
    const opened = await openChecked(path.join(dir, "y.txt"), { within: dir, canRead: () => true });
    if (!("handle" in opened)) throw new Error("expected an open handle");
    expect((await opened.handle.readFile()).toString()).toBe("y");
    await opened.handle.close();
  });

  it("a FIFO is refused as not a file, without blocking on it", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "sub"));
    execFileSync("mkfifo", [path.join(dir, "sub/pipe")]);
    expect(await openChecked(path.join(dir, "sub/pipe"), {})).toEqual({ refused: "not-file" });
  });
});
