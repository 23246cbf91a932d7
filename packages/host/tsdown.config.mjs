import { packageBuild } from "../../tsdown.base.mjs";
export default packageBuild({
  index: "src/index.ts",
  providers: "src/model/providers/index.ts",
  "hook-plan": "src/hook-plan-entry.ts",
});
