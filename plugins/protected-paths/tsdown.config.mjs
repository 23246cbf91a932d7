import { packageBuild } from "../../tsdown.base.mjs";
export default packageBuild({ index: "src/index.ts", decide: "src/decide-entry.ts" });
