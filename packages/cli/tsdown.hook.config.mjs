// The agent-hook fast path as one CommonJS file (dist/hook.cjs), built after tsdown.config.mjs.
// An agent starts one process per tool call: this file holds everything a decision from a stored
// plan needs (the plan reader, protected-paths' decision, tool-audit's external recorder and
// minimatch), so the process resolves and links no other module, and bin/gatehouse.js can load
// it with V8's code cache (see src/code-cache.ts). CommonJS because Node 20 caches compiled code
// only for scripts, not for ES modules.
export default {
  entry: { hook: "src/hook/hook-entry.ts" },
  format: "cjs",
  platform: "node",
  target: "node20.19",
  dts: false,
  clean: false,
  fixedExtension: true,
  hash: false,
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
