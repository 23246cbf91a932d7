import { packageBuild } from "../../tsdown.base.mjs";
// `hook-evaluate`: imported by name by bin/gatehouse.js when the agent-hook fast path (built as
// dist/hook.cjs by tsdown.hook.config.mjs) finds no valid plan.
export default packageBuild({ main: "src/main.ts", "hook-evaluate": "src/hook/hook-evaluate.ts" });
