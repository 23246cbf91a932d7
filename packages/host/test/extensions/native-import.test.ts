import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadModule } from "../../src/extensions/module-loader.ts";
import { type GateRegistration, registerProjectGate } from "../../src/extensions/trust-gate.ts";
import { tempDir } from "../helpers/scenario.ts";

const gates: GateRegistration[] = [];
afterEach(() => {
  for (const gate of gates.splice(0)) gate.close();
});

const ran = () => ((globalThis as { __ghNative?: string[] }).__ghNative ??= []);

/** An ES module that records that it ran, under a unique tag, and exports `{ tag }`. */
const moduleSource = (tag: string) =>
  `(globalThis.__ghNative ??= []).push(${JSON.stringify(tag)}); export default { tag: ${JSON.stringify(tag)} };`;

/** Writes files under a fresh folder (a package.json with `type` when given) and returns it. */
function folder(files: Record<string, string>, type?: string): string {
  const dir = tempDir("gh-native-");
  if (type) writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", type }));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  return dir;
}

// Built ES module extensions outside every project (the first-party plugins, a user's folder) are
// imported by Node directly, without loading jiti; project code never is, however it is spelled.
describe("ES module extensions the loader imports natively", () => {
  it("an .mjs file and a .js file in a type:module package outside any project load, with their default export", async () => {
    const dir = folder({ "a.mjs": moduleSource("native-mjs"), "b.js": moduleSource("native-js") }, "module");
    const home = tempDir("gh-home-");
    for (const [file, tag] of [
      ["a.mjs", "native-mjs"],
      ["b.js", "native-js"],
    ] as const) {
      const loaded = await loadModule(join(dir, file), { home });
      expect(loaded).toEqual({ ok: true, exported: { tag } });
    }
  });

  it("an untrusted project file is refused before it runs, as .mjs and as .js in a type:module package", async () => {
    const project = folder(
      { ".gatehouse/extensions/x.mjs": moduleSource("gated-mjs"), "lib/y.js": moduleSource("gated-js") },
      "module",
    );
    gates.push(registerProjectGate({ root: project, retrust: "gatehouse trust", approval: new Map() }));
    const home = tempDir("gh-home-");
    for (const file of [".gatehouse/extensions/x.mjs", "lib/y.js"]) {
      const loaded = await loadModule(join(project, file), { home });
      expect(loaded.ok).toBe(false);
      expect(loaded.ok ? "" : loaded.error).toContain(`project file ${file} is not trusted`);
    }
    expect(ran()).not.toContain("gated-mjs");
    expect(ran()).not.toContain("gated-js");
  });

  it("a trusted project .mjs file loads through the gate (its code is checked, then runs)", async () => {
    const project = folder({ "ok.mjs": moduleSource("trusted-mjs") });
    gates.push(registerProjectGate({ root: project, retrust: "gatehouse trust", approval: "all" }));
    const loaded = await loadModule(join(project, "ok.mjs"), { home: tempDir("gh-home-") });
    expect(loaded).toEqual({ ok: true, exported: { tag: "trusted-mjs" } });
  });

  it("an unusable Gatehouse home fails the load of a native module too", async () => {
    const dir = folder({ "a.mjs": moduleSource("home-check") });
    const home = tempDir("gh-home-");
    writeFileSync(join(home, "cache"), "not a folder");
    const loaded = await loadModule(join(dir, "a.mjs"), { home });
    expect(loaded.ok).toBe(false);
    expect(ran()).not.toContain("home-check");
  });

  // A script may run the host's sources through jiti (the bench does): the host's own `import()`
  // is then jiti's. jiti keys its disk cache by source, not by options, so code first transformed
  // by an instance with interopDefault on and then run by one with it off hands back
  // `{ default: namespace }` (found in the bench); the extension must load the same either way.
  it("loads the same default export when the host itself runs under jiti, whatever jiti cached", () => {
    const dir = folder({
      "ext.mjs": `export default { name: "ext", setup() {} };`,
      "b.mjs": `export const b = 1;`,
      "ns.mjs": `import * as ns from "./b.mjs"; export default ns;`,
    });
    const here = dirname(fileURLToPath(import.meta.url));
    const loader = join(here, "../../src/extensions/module-loader.ts");
    const cache = tempDir("gh-jiti-cache-");
    const home = tempDir("gh-home-");
    const load = (interopDefault: boolean) => {
      const script = `
        import { createJiti } from "jiti";
        const jiti = createJiti(import.meta.url, { interopDefault: ${interopDefault}, fsCache: ${JSON.stringify(cache)} });
        const { loadModule } = await jiti.import(${JSON.stringify(loader)});
        const ext = await loadModule(${JSON.stringify(join(dir, "ext.mjs"))}, { home: ${JSON.stringify(home)} });
        const ns = await loadModule(${JSON.stringify(join(dir, "ns.mjs"))}, { home: ${JSON.stringify(home)} });
        console.log(JSON.stringify({
          ext: ext.ok && typeof ext.exported.setup === "function" && ext.exported.name,
          ns: ns.ok && Object.prototype.toString.call(ns.exported) === "[object Module]" && ns.exported.b,
        }));`;
      const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: join(here, "../.."),
        encoding: "utf8",
      });
      expect(child.stderr).toBe("");
      return JSON.parse(child.stdout) as unknown;
    };
    expect(load(true)).toEqual({ ext: "ext", ns: 1 });
    expect(load(false)).toEqual({ ext: "ext", ns: 1 });
  });
});
