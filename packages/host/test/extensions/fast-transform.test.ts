import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadModule } from "../../src/extensions/module-loader.ts";
import { createFastTransform } from "../../src/extensions/sucrase-transform.mjs";
import { tempDir } from "../helpers/scenario.ts";

/** Writes a module into a fresh folder and loads it through the real extension loader. */
async function load(files: Record<string, string>, entry: string) {
  const dir = tempDir("gh-transform-");
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  const loaded = await loadModule(join(dir, entry), { home: tempDir("gh-home-") });
  if (!loaded.ok) throw new Error(loaded.error);
  return { dir, exported: loaded.exported as Record<string, unknown> };
}

describe("the extension loader's transform (sucrase, Babel as fallback)", () => {
  it("keeps import.meta.url, filename and dirname meaningful", async () => {
    const { dir, exported } = await load(
      { "meta.ts": "export default { url: import.meta.url, dir: import.meta.dirname, file: import.meta.filename };" },
      "meta.ts",
    );
    expect(exported).toEqual({ url: pathToFileURL(join(dir, "meta.ts")).href, dir, file: join(dir, "meta.ts") });
  });

  it("handles top-level await, dynamic import of a sibling .ts file, enums and type-only imports", async () => {
    const { exported } = await load(
      {
        "helper.ts": "export const twice = (n: number): number => n * 2;\nexport type Unit = 'px';",
        "main.ts": `import type { Unit } from "./helper.ts";
enum Mode { A = 1, B = 2 }
const { twice } = await import("./helper.ts");
const unit: Unit = "px";
export default { value: twice(Mode.B), unit };`,
      },
      "main.ts",
    );
    expect(exported).toEqual({ value: 4, unit: "px" });
  });

  it("rewrites only real import.meta expressions: strings, templates and comments keep their text", () => {
    const transform = createFastTransform(() => ({ code: "/* fallback */" }));
    const source = [
      "// import.meta in a comment",
      "export const u: string = import.meta.url;",
      'export const s = "import.meta";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: module source containing a template literal
      "export const t = `import.meta ${import.meta.dirname}`;",
    ].join("\n");
    const { code } = transform({
      source,
      filename: "m.ts",
      ts: true,
    });
    expect(code).toContain("// import.meta in a comment");
    expect(code).toContain('"import.meta"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected transpiled source text
    expect(code).toContain("`import.meta ${__ghImportMeta.dirname}`");
    expect(code).toContain("const u = __ghImportMeta.url");
  });

  it("keeps module code strict: writing to a frozen object throws, as in an ES module", async () => {
    const { exported } = await load(
      {
        "strict.ts": `export default (() => { const o = Object.freeze({ a: 1 }); try { (o as any).a = 2; return "silent"; } catch { return "threw"; } })();\nexport const where = import.meta.url;`,
      },
      "strict.ts",
    );
    expect(exported).toBe("threw");
  });

  it("works when it transpiles itself, as the CLI bootstrap does on a fresh clone", async () => {
    const { createJiti } = await import("jiti");
    const file = fileURLToPath(new URL("../../src/extensions/sucrase-transform.mjs", import.meta.url));
    const babel = createJiti(import.meta.url, { fsCache: false, moduleCache: false });
    const jiti = createJiti(import.meta.url, {
      fsCache: false,
      moduleCache: false,
      transform: createFastTransform((input) => ({ code: babel.transform(input as never) })),
    });
    const self = (await jiti.import(file)) as { createFastTransform: typeof createFastTransform };
    const again = self.createFastTransform(() => ({ code: "/* fallback */" }));
    expect(again({ source: "export const u = import.meta.url;", filename: "x.ts", ts: true }).code).toContain(
      "__ghImportMeta.url",
    );
  });

  it("falls back to Babel when sucrase cannot parse a file, and a real syntax error still fails to load", async () => {
    const seen: string[] = [];
    const transform = createFastTransform((input) => {
      seen.push(input.filename ?? "");
      return { code: "/* fallback */" };
    });
    expect(transform({ source: "export const ok: number = 1;", filename: "ok.ts", ts: true }).code).toContain(
      "exports.ok",
    );
    expect(seen).toEqual([]);
    expect(transform({ source: "export const = ;", filename: "bad.ts", ts: true }).code).toBe("/* fallback */");
    expect(seen).toEqual(["bad.ts"]);
    const dir = tempDir("gh-transform-");
    writeFileSync(join(dir, "broken.ts"), "export default { oops ");
    expect(await loadModule(join(dir, "broken.ts"), { home: tempDir("gh-home-") })).toMatchObject({ ok: false });
  });
});
