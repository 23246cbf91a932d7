// The agent-hook fast path as one CommonJS file (dist/hook.cjs), built after tsdown.config.mjs.
// An agent starts one process per tool call: this file holds everything a decision from a stored
// plan needs (the plan reader, protected-paths' decision, tool-audit's external recorder and
// minimatch), so the process resolves and links no other module, and bin/gatehouse.js (CommonJS
// too) can load it with V8's code cache (src/code-cache.ts). CommonJS because Node 20 caches
// compiled code only for scripts, not for ES modules, and because importing Node's builtins from
// an ES module builds a facade of each (node:fs's loads every stream class and readline).
import { asciiOutput } from "../../scripts/ascii-output.mjs";

const hook = {
  entry: { hook: "src/hook/hook-entry.ts" },
  format: "cjs",
  platform: "node",
  target: "node20.19",
  dts: false,
  clean: false,
  fixedExtension: true,
  hash: false,
  // Minified (names too): V8 reads, hashes and deserializes less per process; about 5% of a
  // decision's instructions (callgrind). Refusals carry error messages, never stack traces.
  minify: true,
  // Pure ASCII, like every package build (see scripts/ascii-output.mjs): one non-ASCII character
  // makes the whole file a two-byte string for V8.
  plugins: [asciiOutput()],
  outDir: "dist",
  // "error": tsdown warns about every CommonJS build, and this one is CommonJS on purpose.
  logLevel: "error",
  checks: { pluginTimings: false },
  deps: {
    alwaysBundle: [
      "@gatehouse/host/hook-plan",
      "@gatehouse/protected-paths/decide",
      "@gatehouse/tool-audit/external",
      "minimatch",
      "brace-expansion",
      "balanced-match",
    ],
  },
};

// The loader bin/gatehouse.js runs hook.cjs with, built on its own (one build would share its
// imports through hook.cjs, loading that file a second time without the cache).
const loader = { ...hook, entry: { "code-cache": "src/code-cache.ts" }, deps: {} };

export default [hook, loader];
