import { packageBuild } from "../../tsdown.base.mjs";
// minimatch (with its two helpers) is bundled: an agent hook decides in a process of its own, and
// resolving and loading minimatch's eight modules was a tenth of that process's start.
export default {
  ...packageBuild({ index: "src/index.ts", decide: "src/decide-entry.ts" }),
  deps: { alwaysBundle: ["minimatch", "brace-expansion", "balanced-match"] },
};
