import { mkdir, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf, withBudget } from "./helpers.ts";

const grep = builtin("grep");

async function tree(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await tempDir();
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

describe("grep", () => {
  it("prints relpath:line: text for every matching line in a tree", async () => {
    const dir = await tree({ "a.ts": "import x\nconst y = 1\nimport z\n", "src/b.ts": "nothing\r\nimport w\r\n" });
    const result = await run(grep, { pattern: "^import" }, context(dir).ctx);
    expect(textOf(result)).toBe("a.ts:1: import x\na.ts:3: import z\nsrc/b.ts:2: import w");
    expect(result.details).toMatchObject({ matches: 3, filesSearched: 2, truncated: false });
  });

  it("path may be a single file", async () => {
    const dir = await tree({ "src/a.ts": "foo\nbar foo\n" });
    const result = await run(grep, { pattern: "foo", path: "src/a.ts" }, context(dir).ctx);
    expect(textOf(result)).toBe("a.ts:1: foo\na.ts:2: bar foo");
  });

  it("glob filters by basename or by relative path", async () => {
    const dir = await tree({ "a.ts": "hit", "a.md": "hit", "docs/b.md": "hit", "src/c.ts": "hit" });
    const byName = await run(grep, { pattern: "hit", glob: "*.md" }, context(dir).ctx);
    expect(textOf(byName)).toBe("a.md:1: hit\ndocs/b.md:1: hit");
    const byPath = await run(grep, { pattern: "hit", glob: "src/**" }, context(dir).ctx);
    expect(textOf(byPath)).toBe("src/c.ts:1: hit");
  });

  it("skips binary files, .git and node_modules", async () => {
    const dir = await tree({
      "bin.dat": Buffer.concat([Buffer.from("hit\n"), Buffer.from([0])]),
      ".git/config": "hit",
      "node_modules/m/i.js": "hit",
      "ok.txt": "hit",
    });
    const result = await run(grep, { pattern: "hit" }, context(dir).ctx);
    expect(textOf(result)).toBe("ok.txt:1: hit");
    expect(result.details).toMatchObject({ binarySkipped: 1, filesSearched: 1 });
  });

  it("never loads a file larger than 64 MB (a 1 GB sparse file took a gigabyte per call) and says it skipped it", async () => {
    const dir = await tree({ "big.log": "hit\n".repeat(2048), "ok.txt": "hit" });
    await truncate(path.join(dir, "big.log"), 65 * 1024 * 1024);
    const result = await run(grep, { pattern: "hit" }, context(dir).ctx);
    expect(textOf(result)).toBe(
      "ok.txt:1: hit\n\n[1 file larger than 64 MB not searched; use bash (rg, grep) for them]",
    );
    expect(result.details).toMatchObject({ largeSkipped: 1, filesSearched: 1 });
    const alone = await run(grep, { pattern: "hit", path: "big.log" }, context(dir).ctx);
    expect(textOf(alone)).toMatch(/^No matches for \/hit\/ in big\.log\n\n\[1 file larger than 64 MB not searched/);
  });

  it("cuts long lines at 500 characters", async () => {
    const dir = await tree({ "min.js": `hit${"x".repeat(1000)}\n` });
    const result = await run(grep, { pattern: "hit" }, context(dir).ctx);
    expect(textOf(result)).toBe(`min.js:1: hit${"x".repeat(497)}… [line cut at 500 chars]`);
  });

  it("caps at 200 matches with a marker", async () => {
    const dir = await tree({ "many.txt": "hit\n".repeat(300) });
    const result = await run(grep, { pattern: "hit" }, context(dir).ctx);
    const lines = textOf(result).split("\n");
    expect(lines.filter((l) => l.startsWith("many.txt:"))).toHaveLength(200);
    expect(lines[199]).toBe("many.txt:200: hit");
    expect(lines.at(-1)).toBe("[truncated: showing the first 200 matches; narrow the pattern, path or glob]");
    expect(result.details).toMatchObject({ matches: 200, truncated: true });
  });

  it("caps across files matched in different batches, and exactly 200 matches are not truncated", async () => {
    const filler = `${"x".repeat(99)}\n`.repeat(11_000); // more than one batch of text (1 MiB)
    const dir = await tree({ "a.txt": `${filler}${"hit\n".repeat(150)}`, "b.txt": "hit\n".repeat(50) });
    const exact = await run(grep, { pattern: "hit" }, context(dir).ctx);
    expect(exact.details).toMatchObject({ matches: 200, truncated: false });
    expect(textOf(exact).split("\n").at(-1)).toBe("b.txt:50: hit");
    await writeFile(path.join(dir, "c.txt"), "hit\n");
    const over = await run(grep, { pattern: "hit" }, context(dir).ctx);
    expect(over.details).toMatchObject({ matches: 200, truncated: true });
  });

  it("a pattern that backtracks exponentially ends as an error instead of freezing the host", {
    timeout: 30_000,
  }, async () => {
    const dir = await tree({ "a.txt": "ok\n", "x.txt": `${"a".repeat(33)}b\n` }); // a minute or more unbounded
    const started = performance.now();
    const result = await withBudget(() => run(grep, { pattern: "^(a|a)*$" }, context(dir).ctx));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The pattern \/\^\(a\|a\)\*\$\/ took more than 0.5 s to match, so grep stopped/);
  });

  it("a glob that backtracks exponentially ends as an error instead of freezing the host", {
    timeout: 30_000,
  }, async () => {
    // *a*a*…*b against a long name took minutes on the main thread, deaf to abort and SIGINT.
    const dir = await tree({ "ok.txt": "hit\n", [`${"a".repeat(60)}.txt`]: "hit\n" });
    const started = performance.now();
    const result = await withBudget(() =>
      run(grep, { pattern: "hit", glob: `${"*a".repeat(12)}*b` }, context(dir).ctx),
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The glob "(\*a){12}\*b" took more than 0.5 s to match, so grep stopped/);
  });

  it("an invalid regular expression is a clear error", async () => {
    const dir = await tree({ "a.txt": "x" });
    const result = await run(grep, { pattern: "foo(" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid regular expression "foo\(" for grep in \.: .*unterminated group/i);
  });

  it("no match says so", async () => {
    const dir = await tree({ "a.txt": "x\n" });
    const result = await run(grep, { pattern: "^$" }, context(dir).ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("No matches for /^$/ in .");
  });

  it("a device path is an error, not an endless read", async () => {
    const result = await run(grep, { pattern: "x", path: "/dev/zero" }, context("/").ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Cannot search /dev/zero: it is not a regular file or a directory.");
  });

  it("a missing path is an error naming it", async () => {
    const dir = await tempDir();
    const result = await run(grep, { pattern: "x", path: "gone" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Cannot search gone (${path.join(dir, "gone")}): no such file or directory.`);
  });
});
