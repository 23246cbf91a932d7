import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../host/test/helpers/scenario.ts";
import { requireCached } from "../src/code-cache.ts";

function moduleFile(body: string): string {
  const file = join(tempDir("gh-code-cache-"), "mod.cjs");
  writeFileSync(file, body);
  return file;
}

describe("requireCached", () => {
  it("runs a CommonJS file like require, keeps V8's cache beside it and uses it the next time", () => {
    const file = moduleFile(
      'const path = require("node:path");\nexports.name = path.basename(__filename);\nexports.twice = (n) => n * 2;\n',
    );
    const first = requireCached(file);
    expect(first.cacheUsed).toBe(false);
    expect(first.exports).toMatchObject({ name: "mod.cjs" });
    expect((first.exports as { twice(n: number): number }).twice(21)).toBe(42);
    first.saveCache();
    const stored = readFileSync(`${file}.v8-cache`);
    expect(stored.length).toBeGreaterThan(32);
    const second = requireCached(file);
    expect(second.cacheUsed).toBe(true);
    expect((second.exports as { twice(n: number): number }).twice(4)).toBe(8);
  });

  it("never uses a cache made from other text, even of the same length (V8 checks only the length)", () => {
    const file = moduleFile("exports.answer = 41;\n");
    const first = requireCached(file);
    first.saveCache();
    writeFileSync(file, "exports.answer = 42;\n");
    const changed = requireCached(file);
    expect(changed.cacheUsed).toBe(false);
    expect(changed.exports).toEqual({ answer: 42 });
  });

  it("a cache that cannot be written is no error: the module still works", () => {
    const file = moduleFile("exports.ok = true;\n");
    // A directory where the cache file would go: the rename fails.
    mkdirSync(`${file}.v8-cache`);
    const loaded = requireCached(file);
    expect(() => loaded.saveCache()).not.toThrow();
    expect(loaded.exports).toEqual({ ok: true });
    expect(requireCached(file).cacheUsed).toBe(false);
  });
});
