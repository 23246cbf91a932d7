import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf, withBudget } from "./helpers.ts";

const find = builtin("find");

async function tree(files: string[]): Promise<string> {
  const dir = await tempDir();
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), "");
  }
  return dir;
}

describe("find", () => {
  it("matches a ** glob, relative to the search root, dotfiles included", async () => {
    const dir = await tree(["src/a.ts", "src/deep/b.ts", "src/c.js", ".hidden/d.ts", "e.ts"]);
    const result = await run(find, { pattern: "**/*.ts" }, context(dir).ctx);
    expect(textOf(result)).toBe([".hidden/d.ts", "e.ts", "src/a.ts", "src/deep/b.ts"].join("\n"));
    expect(result.details).toMatchObject({ matches: 4, truncated: false });
  });

  it("a pattern without '/' matches names at any depth", async () => {
    const dir = await tree(["a.md", "docs/b.md", "docs/c.txt"]);
    const result = await run(find, { pattern: "*.md" }, context(dir).ctx);
    expect(textOf(result)).toBe("a.md\ndocs/b.md");
  });

  it("searches under path, with results relative to it, directories suffixed '/'", async () => {
    const dir = await tree(["pkg/src/index.ts", "pkg/test/x.ts", "other/index.ts"]);
    const result = await run(find, { pattern: "s*", path: "pkg" }, context(dir).ctx);
    expect(textOf(result)).toBe("src/");
  });

  it("skips .git and node_modules", async () => {
    const dir = await tree(["a.js", ".git/hooks/pre.js", "node_modules/m/index.js", "lib/node_modules/n/i.js"]);
    const result = await run(find, { pattern: "**/*.js" }, context(dir).ctx);
    expect(textOf(result)).toBe("a.js");
  });

  it("lists a directory symlink but does not enter it (no cycles)", async () => {
    const dir = await tree(["real/a.txt"]);
    await symlink(dir, path.join(dir, "loop"));
    await symlink(path.join(dir, "real"), path.join(dir, "alias"));
    const result = await run(find, { pattern: "**" }, context(dir).ctx);
    expect(textOf(result)).toBe(["alias/", "loop/", "real/", "real/a.txt"].join("\n"));
  });

  it("caps at 1000 results with a marker", async () => {
    const dir = await tempDir();
    await Promise.all(Array.from({ length: 1005 }, (_, i) => writeFile(path.join(dir, `f${i}.txt`), "")));
    const result = await run(find, { pattern: "*.txt" }, context(dir).ctx);
    const lines = textOf(result).split("\n");
    expect(lines.filter((l) => l.endsWith(".txt"))).toHaveLength(1000);
    expect(lines.at(-1)).toBe(
      "[truncated: showing the first 1000 matches; narrow the pattern or search a subdirectory]",
    );
    expect(result.details).toMatchObject({ matches: 1000, truncated: true });
  });

  it("no match says so, naming pattern and path", async () => {
    const dir = await tree(["a.txt"]);
    const result = await run(find, { pattern: "*.rs" }, context(dir).ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("No paths match *.rs under .");
  });

  it("a missing or non-directory path is an error naming it", async () => {
    const dir = await tree(["a.txt"]);
    const missing = await run(find, { pattern: "*", path: "nope" }, context(dir).ctx);
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("Cannot search nope");
    const file = await run(find, { pattern: "*", path: "a.txt" }, context(dir).ctx);
    expect(textOf(file)).toMatch(/^a\.txt is not a directory/);
  });

  it("stops with an error when aborted", async () => {
    const dir = await tree(["a.txt"]);
    const controller = new AbortController();
    controller.abort();
    const result = await run(find, { pattern: "*" }, context(dir, controller).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("find in . was aborted.");
  });
  it("a glob that backtracks exponentially ends as an error instead of freezing the host", {
    timeout: 30_000,
  }, async () => {
    // +(a|*)z against a 40-character name ran for hours on the main thread, deaf to abort and SIGINT.
    const dir = await tree(["ok.txt", `${"a".repeat(40)}.txt`]);
    const started = performance.now();
    const result = await withBudget(() => run(find, { pattern: "+(a|*)z" }, context(dir).ctx));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The glob "\+\(a\|\*\)z" took more than 0.5 s to match, so find stopped/);
  });

  it("globs of every form still match as before when matched in batches", async () => {
    const names = Array.from({ length: 600 }, (_, i) => `n/${String(i).padStart(3, "0")}.${i % 2 ? "ts" : "md"}`);
    const dir = await tree([...names, "x/{y}.ts"]);
    const result = await run(find, { pattern: "n/+(0|1)*.{md,txt}" }, context(dir).ctx);
    const expected = names.filter((n) => /^n\/[01]\d*\.md$/.test(n));
    expect(textOf(result).split("\n")).toEqual(expected);
    expect(textOf(await run(find, { pattern: "*.ts" }, context(dir).ctx)).split("\n")).toHaveLength(301);
  });
});
