#!/usr/bin/env node
// The installed `gatehouse` command: runs the built CLI (no transpiling at start).
const args = process.argv.slice(2);
let code;
if (args[0] === "hook") {
  // Agents start one process per tool call for their hooks: that path loads one file, with V8's
  // code cache, and the full CLI only when it needs it (help, install, or no stored plan).
  const { requireCached } = await import("../dist/code-cache.js");
  const hook = requireCached(new URL("../dist/hook.cjs", import.meta.url).pathname);
  let evaluated = false;
  const evaluate = async (options) => {
    evaluated = true;
    return (await import("../dist/hook-evaluate.js")).evaluateHook(options);
  };
  code = await hook.exports.hookFastPath(args.slice(1), { evaluate });
  // The cache is kept from a decision made from a plan: the code every later call runs.
  if (code !== undefined && !evaluated) hook.saveCache();
}
process.exitCode = code ?? (await (await import("../dist/main.js")).main(args));
