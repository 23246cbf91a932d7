import { packageBuild } from "../../tsdown.base.mjs";
// `hook-evaluate` and `code-cache`: imported by name by bin/gatehouse.js for the agent-hook fast
// path (built as dist/hook.cjs by tsdown.hook.config.mjs).
export default packageBuild({
  main: "src/main.ts",
  "hook-evaluate": "src/hook/hook-evaluate.ts",
  "code-cache": "src/code-cache.ts",
});
