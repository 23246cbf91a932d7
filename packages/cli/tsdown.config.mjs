import { packageBuild } from "../../tsdown.base.mjs";
export default packageBuild({ main: "src/main.ts" });
