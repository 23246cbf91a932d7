#!/usr/bin/env node
// The installed `gatehouse` command: runs the built CLI (no transpiling at start). This file is
// CommonJS (bin/package.json), so an agent hook — one process per tool call — loads no ES module:
// its path is dist/hook.cjs, run with V8's code cache, and the full CLI loads only when needed
// (help, install, flags it does not know, or a project without a stored plan).
const path = require("node:path");

// Node ≥ 20.19 loads ES modules through require() (require(esm)): synchronously, the whole graph,
// sharing the module instances a later import() gets. For the ~100 modules of the host, the SDK and
// zod that saves about 15% of `gatehouse tools`' start-up CPU over import(). Older Nodes import().
const requiresEsm = process.features.require_module === true;

/** The built CLI's entry, dist/main.js, with the options its command table uses. */
async function loadMain() {
  if (!requiresEsm) return { main: (await import("../dist/main.js")).main, options: {} };
  return { main: require("../dist/main.js").main, options: { preloadHost: () => require("@gatehouse/host") } };
}

async function run(args) {
  if (args[0] === "hook") {
    const { requireCached } = require("../dist/code-cache.cjs");
    const hook = requireCached(path.join(__dirname, "..", "dist", "hook.cjs"));
    let evaluated = false;
    const evaluate = async (options) => {
      evaluated = true;
      return (await import("../dist/hook-evaluate.js")).evaluateHook(options);
    };
    const onRelay = () => {
      evaluated = true;
    };
    const code = await hook.exports.hookFastPath(args.slice(1), { evaluate, onRelay });
    if (code !== undefined) {
      // The cache is kept from a decision made from a plan: the code every later call runs.
      if (!evaluated) hook.saveCache();
      return code;
    }
  }
  const { main, options } = await loadMain();
  return main(args, undefined, options);
}

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
