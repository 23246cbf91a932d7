import { afterEach, describe, expect, it } from "vitest";
import { call, say } from "../helpers/scenario.ts";
import { closeHosts, makeProject, openHost, trustProject } from "./project.ts";

afterEach(closeHosts);

const marks = () => ((globalThis as { __ghRan?: string[] }).__ghRan ??= []);

/** An ES module that records that it ran under `tag`. */
const esm = (tag: string, imports = "") =>
  `${imports}(globalThis.__ghRan ??= []).push(${JSON.stringify(tag)}); export default ${JSON.stringify(tag)};\n`;

/**
 * An extension with one tool, `load`, that loads a project file (relative to the project) the way
 * `how` names, always through code Node compiles natively rather than through the extension loader.
 */
const LOADER_EXTENSION = `import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { defineExtension, defineTool, z } from "@gatehouse/sdk";
import jsLoader from "../../lib/loader.js";
import cjsLoader from "../../lib/loader.cjs";
import pluginHost from "plugin-host";
export default defineExtension({ name: "native-loaders", setup(api) {
  const url = (file: string) => pathToFileURL(join(api.cwd, file)).href;
  const ways: Record<string, (file: string) => Promise<unknown>> = {
    js: (file) => jsLoader.load(url(file)),
    cjs: (file) => cjsLoader.load(url(file)),
    esm: async (file) => (await jsLoader.known()).load(url(file)),
    dep: () => pluginHost.loadFromConfig(api.cwd),
    require: async (file) => jsLoader.req(join(api.cwd, file)),
    known: () => jsLoader.known(),
    dlopen: async (file) => {
      const module = { exports: {} };
      process.dlopen(module, join(api.cwd, file));
      return module.exports;
    },
  };
  api.registerTool(defineTool({ name: "load", description: "loads a project file natively",
    parameters: z.object({ how: z.string(), file: z.string().optional() }), effects: () => [],
    execute: async ({ how, file }) => {
      const mod = (await ways[how]!(file ?? "")) as { default?: unknown };
      return { content: [{ type: "text", text: "loaded " + String(mod?.default) }] };
    } }));
} });
`;

/** Plain CommonJS (no transform needed, so jiti hands it to Node's own require). */
const CJS_LOADER = `exports.load = (url) => import(url);
exports.req = (file) => require(file);
exports.known = () => import("./plugins/known.mjs");
`;

const PLUGIN_HOST = `const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");
exports.loadFromConfig = (dir) => {
  const { plugin } = JSON.parse(readFileSync(join(dir, "plugins.json"), "utf8"));
  return import(pathToFileURL(join(dir, plugin)).href);
};
`;

function loaderProject() {
  return makeProject({
    ".gatehouse/extensions/loaders.ts": LOADER_EXTENSION,
    "lib/loader.js": CJS_LOADER,
    "lib/loader.cjs": CJS_LOADER,
    "lib/plugins/known.mjs": `${esm("known", 'import "./known-dep.mjs";\n')}export const load = (url) => import(url);\n`,
    "lib/plugins/known-dep.mjs": esm("known-dep"),
    "node_modules/plugin-host/package.json": JSON.stringify({ name: "plugin-host", main: "index.js" }),
    "node_modules/plugin-host/index.js": PLUGIN_HOST,
    "plugins.json": JSON.stringify({ plugin: "lib/plugins/late.mjs" }),
  });
}

/** Opens a host on the project; `run` then makes one batch of `load` calls and returns their texts. */
async function openLoaders(project: ReturnType<typeof makeProject>, calls: Record<string, unknown>[]) {
  const { host } = await openHost(project, {
    turns: [{ content: calls.map((args, i) => call(`c${i}`, "load", args)) }, say("ok")],
  });
  expect(host.extensions()[0]).toMatchObject({ name: "native-loaders", status: "loaded" });
  return async () => {
    const messages = (await host.run("go")).messages.filter((m) => m.role === "toolResult") as unknown as {
      toolCallId: string;
      content: { text?: string }[];
    }[];
    return calls.map((_, i) => {
      const message = messages.find((m) => m.toolCallId === `c${i}`);
      return message?.content.map((c) => c.text ?? "").join("") ?? "";
    });
  };
}

// Finding: plain CommonJS is compiled by Node itself, so an import() in it went to Node's ES module
// loader, which neither jiti nor the CommonJS hook saw: a file written after trust ran in the host.
describe("project code loaded by Node's own loaders passes the trust gate", () => {
  it("a file written after trust is refused whichever native loader imports it (.js, .cjs, an ES module, a project dependency, require of ESM)", async () => {
    const p = loaderProject();
    trustProject(p);
    p.write("lib/plugins/late.mjs", esm("late"));
    p.write("lib/plugins/late-cjs.cjs", `(globalThis.__ghRan ??= []).push("late-cjs"); module.exports = "late-cjs";`);
    marks().length = 0;
    const texts = await (
      await openLoaders(p, [
        { how: "js", file: "lib/plugins/late.mjs" },
        { how: "cjs", file: "lib/plugins/late.mjs" },
        { how: "esm", file: "lib/plugins/late.mjs" },
        { how: "dep" },
        { how: "js", file: "lib/plugins/late-cjs.cjs" },
        { how: "require", file: "lib/plugins/late.mjs" },
      ])
    )();
    for (const text of texts.slice(0, 5))
      expect(text).toMatch(/project file lib\/plugins\/late(-cjs)?\.[mc]js is not trusted/);
    expect(texts[5]).toContain("required natively");
    // Only the trusted module the ES module way goes through ran.
    expect(marks().sort()).toEqual(["known", "known-dep"]);
  });

  it("a native addon in the project never loads, required or opened with process.dlopen", async () => {
    const p = loaderProject();
    p.write("lib/addon.node", "not really an addon");
    trustProject(p);
    const texts = await (
      await openLoaders(p, [
        { how: "require", file: "lib/addon.node" },
        { how: "dlopen", file: "lib/addon.node" },
      ])
    )();
    for (const text of texts) expect(text).toContain("addon.node is a native addon");
  });

  it("files trust recorded load natively; one edited after the host opened is refused when imported, its importer never runs", async () => {
    const p = loaderProject();
    trustProject(p);
    marks().length = 0;
    expect(await (await openLoaders(p, [{ how: "known" }]))()).toEqual(["loaded known"]);
    expect(marks()).toEqual(["known-dep", "known"]);
    await closeHosts();

    const q = loaderProject();
    trustProject(q);
    marks().length = 0;
    const run = await openLoaders(q, [{ how: "known" }]);
    q.write("lib/plugins/known-dep.mjs", esm("evil-dep"));
    const [text] = await run();
    expect(text).toContain(
      "project file lib/plugins/known-dep.mjs is not trusted: it was edited after trust was granted",
    );
    expect(marks()).toEqual([]);
  });
});
