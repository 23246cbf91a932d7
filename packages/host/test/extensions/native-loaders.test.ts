import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { call, say, tempDir } from "../helpers/scenario.ts";
import { closeHosts, makeProject, openHost, trustProject } from "./project.ts";

afterEach(closeHosts);

/** Writes `body` to `file` and returns `file`. */
const writeFile = (file: string, body: string) => {
  writeFileSync(file, body);
  return file;
};

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
    worker: (file) => jsLoader.worker(join(api.cwd, file)),
    workerUrl: async (file) => (await jsLoader.known()).worker(url(file)),
    workerPreload: (files) => {
      const [entry, preload] = files.split("|");
      return jsLoader.worker(join(api.cwd, entry!), { execArgv: [\`--require=\${join(api.cwd, preload!)}\`] });
    },
    workerEval: (file) => jsLoader.worker(\`require(\${JSON.stringify(join(api.cwd, file))})\`, { eval: true }),
    fork: (file) => jsLoader.fork(join(api.cwd, file)),
    createRequire: async (file) => jsLoader.creq(file),
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
exports.creq = (spec) => require("node:module").createRequire(__filename)(spec);
exports.worker = (entry, options) =>
  new Promise((resolve, reject) => {
    const worker = new (require("node:worker_threads").Worker)(entry, options);
    worker.on("exit", resolve);
    worker.on("error", reject);
  });
exports.fork = (file) =>
  new Promise((resolve, reject) => {
    const child = require("node:child_process").fork(file, [], { stdio: "ignore" });
    child.on("exit", resolve);
    child.on("error", reject);
  });
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
    "lib/plugins/known.mjs": `${esm("known", 'import "./known-dep.mjs";\nimport { Worker } from "node:worker_threads";\n')}export const load = (url) => import(url);
export const worker = (url) => new Promise((resolve, reject) => {
  const w = new Worker(new URL(url));
  w.on("exit", resolve);
  w.on("error", reject);
});
`,
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

/** A script that leaves `marker` behind when it runs (on a worker thread or in another process). */
const marking = (marker: string) =>
  `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran in " + process.pid);\n`;

// Finding: a trusted loader started project files as worker threads (or forked them); Node gives a
// worker none of this thread's hooks, so a file written after trust ran in the host unchecked.
describe("project code started as a worker thread or a forked process", () => {
  it("is refused however it is named, eval workers too; a worker from outside the project still runs", async () => {
    const p = loaderProject();
    trustProject(p);
    const outside = tempDir("gh-outside-");
    const marker = (name: string) => join(outside, `ran-${name}`);
    p.write("lib/plugins/w.worker.js", marking(marker("cjs")));
    p.write(
      "lib/plugins/w.worker.mjs",
      `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker("esm"))}, "ran");\n`,
    );
    p.write("lib/plugins/forked.js", marking(marker("fork")));
    symlinkSync(writeFile(join(outside, "evil.js"), marking(marker("linked"))), join(p.dir, "lib/plugins/l.worker.js"));
    const fine = join(outside, "fine.js");
    writeFileSync(fine, marking(marker("fine")));
    const texts = await (
      await openLoaders(p, [
        { how: "worker", file: "lib/plugins/w.worker.js" },
        { how: "worker", file: "lib/plugins/w.worker.mjs" },
        { how: "workerUrl", file: "lib/plugins/w.worker.mjs" },
        { how: "workerEval", file: "lib/plugins/w.worker.js" },
        { how: "fork", file: "lib/plugins/forked.js" },
        { how: "worker", file: relative(p.dir, fine) },
        { how: "worker", file: "lib/plugins/l.worker.js" },
        { how: "workerPreload", file: `${relative(p.dir, fine)}|lib/plugins/w.worker.js` },
      ])
    )();
    expect(texts[6]).toMatch(/project file .*l\.worker\.js was started as a worker/);
    expect(texts[7]).toMatch(/project file .*w\.worker\.js was handed to a worker/);
    expect(texts[0]).toMatch(/project file .*w\.worker\.js was started as a worker.*runs outside the trust gate/);
    expect(texts[1]).toMatch(/project file .*w\.worker\.mjs was started as a worker/);
    expect(texts[2]).toMatch(/project file .*w\.worker\.mjs was started as a worker/);
    expect(texts[3]).toContain("an eval worker");
    expect(texts[4]).toMatch(/project file .*forked\.js was forked/);
    expect(texts[5]).toBe("loaded undefined");
    expect(readdirSync(outside).sort()).toEqual(["evil.js", "fine.js", "ran-fine"]);
  });

  it("a worker from outside the project runs while a project is open, unless handed a project module to load", async () => {
    const p = loaderProject();
    trustProject(p);
    const outside = tempDir("gh-outside-");
    p.write("lib/transport.js", marking(join(outside, "ran-transport")));
    // Like a logging transport's worker: loads the module it is handed, writes to the log it is handed.
    const runner = writeFile(
      join(outside, "runner.js"),
      `const { workerData } = require("node:worker_threads");
if (workerData.module) require(workerData.module);
require("node:fs").writeFileSync(workerData.log, "logged");
`,
    );
    await openLoaders(p, []);
    const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");
    const log = join(p.dir, "app.log");
    await new Promise((resolve, reject) =>
      new Worker(runner, { workerData: { log } }).on("exit", resolve).on("error", reject),
    );
    expect(readFileSync(log, "utf8")).toBe("logged");
    for (const module of [join(p.dir, "lib/transport.js"), pathToFileURL(join(p.dir, "lib/transport.js")).href]) {
      expect(() => new Worker(runner, { workerData: { log, options: { module } } })).toThrow(
        /project file .*transport\.js was handed to a worker/,
      );
    }
    expect(readdirSync(outside)).toEqual(["runner.js"]);
  });
});

// Finding: Node resolves links before its loaders see a file, so a link inside the project to a
// file outside every project, made after trust, ran as if it were no project's code.
describe("a link out of the project made after trust", () => {
  it("is refused when Node's own import() or a createRequire reaches it; a real file at that path is refused the same", async () => {
    const p = loaderProject();
    trustProject(p);
    const outside = tempDir("gh-outside-");
    symlinkSync(writeFile(join(outside, "p.mjs"), esm("linked-esm")), join(p.dir, "lib/plugins/p.mjs"));
    const cjs = `(globalThis.__ghRan ??= []).push("linked-cjs"); module.exports = "linked-cjs";`;
    symlinkSync(writeFile(join(outside, "q.cjs"), cjs), join(p.dir, "lib/plugins/q.cjs"));
    symlinkSync(writeFile(join(outside, "r.cjs"), cjs), join(p.dir, "lib/plugins/r.cjs"));
    mkdirSync(join(outside, "dir"));
    symlinkSync(join(outside, "dir"), join(p.dir, "lib/linked-dir"));
    writeFile(join(outside, "dir/s.mjs"), esm("linked-dir"));
    p.write("lib/plugins/real.mjs", esm("real"));
    marks().length = 0;
    const texts = await (
      await openLoaders(p, [
        { how: "js", file: "lib/plugins/p.mjs" },
        { how: "cjs", file: "lib/plugins/p.mjs" },
        { how: "js", file: "lib/plugins/q.cjs" },
        { how: "createRequire", file: "./plugins/r.cjs" },
        { how: "js", file: "lib/linked-dir/s.mjs" },
        { how: "js", file: "lib/plugins/real.mjs" },
      ])
    )();
    for (const text of texts.slice(0, 5))
      expect(text).toMatch(/ is not trusted: it is not part of the code trust was granted for/);
    expect(texts[5]).toMatch(/project file lib\/plugins\/real\.mjs is not trusted/);
    expect(marks()).toEqual([]);
  });
});
