import { readFile, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtin, context, run, tempDir, textOf } from "./helpers.ts";

const edit = builtin("edit");

async function fileWith(content: string | Buffer) {
  const dir = await tempDir();
  const file = path.join(dir, "f.txt");
  await writeFile(file, content);
  return { dir, file, ctx: context(dir).ctx, contents: () => readFile(file, "utf8") };
}

describe("edit", () => {
  it("replaces text that occurs exactly once", async () => {
    const f = await fileWith("const a = 1;\nconst b = 2;\n");
    const result = await run(edit, { path: "f.txt", oldText: "b = 2", newText: "b = 3" }, f.ctx);
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe("Edited f.txt: replaced 1 occurrence.");
    expect(result.details).toMatchObject({ edits: 1, replacements: 1, counts: [1], firstChangedLine: 2 });
    expect(await f.contents()).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("text that is not found is an error saying how to fix it, and the file is unchanged", async () => {
    const f = await fileWith("alpha\n");
    const result = await run(edit, { path: "f.txt", oldText: "beta", newText: "gamma" }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^oldText was not found in f\.txt\. It must match the file exactly.*f\.txt was not changed\.$/,
    );
    expect(await f.contents()).toBe("alpha\n");
  });

  it("hints at whitespace when only the trimmed text occurs", async () => {
    const f = await fileWith("  if (x) {\n");
    const result = await run(edit, { path: "f.txt", oldText: "if (x) {  ", newText: "if (y) {" }, f.ctx);
    expect(textOf(result)).toContain("check indentation");
  });

  it("text that matches several times is an error naming the count and replaceAll", async () => {
    const f = await fileWith("x = 1\nx = 1\nx = 1\n");
    const result = await run(edit, { path: "f.txt", oldText: "x = 1", newText: "x = 2" }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^oldText matches 3 times in f\.txt; include more surrounding lines .* replaceAll: true/,
    );
    expect(await f.contents()).toBe("x = 1\nx = 1\nx = 1\n");
  });

  it("replaceAll replaces every occurrence and reports the count", async () => {
    const f = await fileWith("x = 1\ny\nx = 1\nx = 1\n");
    const result = await run(edit, { path: "f.txt", oldText: "x = 1", newText: "x = 2", replaceAll: true }, f.ctx);
    expect(textOf(result)).toBe("Edited f.txt: replaced 3 occurrences.");
    expect(result.details).toMatchObject({ replacements: 3, counts: [3] });
    expect(await f.contents()).toBe("x = 2\ny\nx = 2\nx = 2\n");
  });

  it("applies an edits list against the original file", async () => {
    const f = await fileWith("a\nb\nc\n");
    const edits = [
      { oldText: "c", newText: "C" },
      { oldText: "a", newText: "b" },
      { oldText: "b\n", newText: "B\n" },
    ];
    const result = await run(edit, { path: "f.txt", edits }, f.ctx);
    expect(textOf(result)).toBe("Edited f.txt: applied 3 edits, replacing 3 occurrences.");
    // "a" became "b" but the third edit matched the original "b" only: edits do not see each other.
    expect(await f.contents()).toBe("b\nB\nC\n");
    expect(result.details).toMatchObject({ edits: 3, replacements: 3, counts: [1, 1, 1], firstChangedLine: 1 });
  });

  it("an edits list is all or nothing and names the failing edit", async () => {
    const f = await fileWith("a\nb\n");
    const edits = [
      { oldText: "a", newText: "A" },
      { oldText: "zzz", newText: "Z" },
    ];
    const result = await run(edit, { path: "f.txt", edits }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^edits\[1\]\.oldText was not found in f\.txt/);
    expect(await f.contents()).toBe("a\nb\n");
  });

  it("overlapping edits are an error that says to merge them", async () => {
    const f = await fileWith("hello world\n");
    const edits = [
      { oldText: "hello wo", newText: "x" },
      { oldText: "world", newText: "y" },
    ];
    const result = await run(edit, { path: "f.txt", edits }, f.ctx);
    expect(textOf(result)).toMatch(/^edits\[0\] and edits\[1\] overlap in f\.txt; merge them into one edit\./);
  });

  it("keeps CRLF line endings when oldText and newText use LF", async () => {
    const f = await fileWith("one\r\ntwo\r\nthree\r\n");
    const result = await run(edit, { path: "f.txt", oldText: "one\ntwo", newText: "uno\ndos\nextra" }, f.ctx);
    expect(result.isError).toBeUndefined();
    expect(await f.contents()).toBe("uno\r\ndos\r\nextra\r\nthree\r\n");
  });

  it("gives single-line replacements in a CRLF file CRLF breaks", async () => {
    const f = await fileWith("a\r\nb\r\n");
    await run(edit, { path: "f.txt", oldText: "b", newText: "b1\nb2" }, f.ctx);
    expect(await f.contents()).toBe("a\r\nb1\r\nb2\r\n");
  });

  it("matches CRLF oldText in an LF file and writes LF", async () => {
    const f = await fileWith("one\ntwo\n");
    await run(edit, { path: "f.txt", oldText: "one\r\ntwo", newText: "1\r\n2" }, f.ctx);
    expect(await f.contents()).toBe("1\n2\n");
  });

  it("identical oldText and newText is an error", async () => {
    const f = await fileWith("a\n");
    const result = await run(edit, { path: "f.txt", oldText: "a", newText: "a" }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("identical");
  });

  it("a missing file is an error naming the path", async () => {
    const dir = await tempDir();
    const result = await run(edit, { path: "gone.txt", oldText: "a", newText: "b" }, context(dir).ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Cannot edit gone\.txt .*no such file or directory\.$/);
  });

  it("refuses to rewrite a file that is not valid UTF-8", async () => {
    const f = await fileWith(Buffer.from([0x61, 0xff, 0x62]));
    const result = await run(edit, { path: "f.txt", oldText: "a", newText: "c" }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("f.txt is not valid UTF-8");
    expect(await readFile(f.file)).toEqual(Buffer.from([0x61, 0xff, 0x62]));
  });

  it("validation requires oldText and newText, or edits, but not both", () => {
    const issues = (args: unknown) => {
      const parsed = edit.parameters.safeParse(args);
      return parsed.success
        ? []
        : parsed.error.issues.map(
            (i: { path: PropertyKey[]; message: string }) => `${i.path.map(String).join(".")}: ${i.message}`,
          );
    };
    expect(issues({ path: "f" })).toEqual([
      "oldText: required (or pass edits: [{oldText, newText}])",
      "newText: required (or pass edits: [{oldText, newText}])",
    ]);
    expect(issues({ path: "f", oldText: "a", edits: [{ oldText: "a", newText: "b" }] })).toEqual([
      "edits: pass either oldText/newText or edits, not both",
    ]);
    expect(issues({ path: "f", oldText: "", newText: "b" })).toHaveLength(1);
    expect(issues({ path: "f", edits: [] })).toHaveLength(1);
    expect(issues({ path: "f", edits: [{ oldText: "a", newText: "b" }] })).toEqual([]);
  });

  it("bounds the work of one call: many edits of a large file, or a replaceAll with too many matches, are refused untouched", async () => {
    // 2 MB of distinct lines; 100 edits would search it 100 times (each edit scans the whole file).
    const lines = Array.from({ length: 200_000 }, (_, i) => `line${String(i).padStart(5, "0")}`);
    const f = await fileWith(`${lines.join("\n")}\n`);
    const edits = Array.from({ length: 100 }, (_, i) => ({ oldText: `${lines[i * 10]}\n`, newText: `L${i}\n` }));
    const many = await run(edit, { path: "f.txt", edits }, f.ctx);
    expect(many.isError).toBe(true);
    expect(textOf(many)).toMatch(
      /^100 edits of f\.txt \(\d+ characters\) are more than one call searches; send at most 6[0-9] edits per call/,
    );
    // A few edits of the same file are fine.
    const few = await run(edit, { path: "f.txt", edits: edits.slice(0, 3) }, f.ctx);
    expect(textOf(few)).toBe("Edited f.txt: applied 3 edits, replacing 3 occurrences.");

    const g = await fileWith("x".repeat(150_000));
    const all = await run(edit, { path: "f.txt", oldText: "x", newText: "y", replaceAll: true }, g.ctx);
    expect(textOf(all)).toMatch(
      /^oldText occurs more often in f\.txt than the 100000 replacements one edit call makes/,
    );
    const once = await run(edit, { path: "f.txt", oldText: "x", newText: "y" }, g.ctx);
    expect(textOf(once)).toMatch(/^oldText matches more than 100000 times in f\.txt; include more surrounding lines/);
    expect(await g.contents()).toBe("x".repeat(150_000));
  });

  it("refuses a file larger than it loads, without reading it (a sparse file of 300 MB took a gigabyte)", async () => {
    const f = await fileWith("start\n");
    await truncate(f.file, 65 * 1024 * 1024);
    const result = await run(edit, { path: "f.txt", oldText: "start", newText: "end" }, f.ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "f.txt is 65 MB, larger than edit loads (64 MB); change it with bash (sed -i) instead. f.txt was not changed.",
    );
  });
});
