import { packageBuild } from "../../tsdown.base.mjs";
export default packageBuild({ index: "src/index.ts", readers: "src/readers.ts", external: "src/external-entry.ts" });
