export type { BashDetails } from "./bash.ts";
export type { BuiltinToolsOptions } from "./builtin-tools.ts";
export { createBuiltinTools } from "./builtin-tools.ts";
export type { EditDetails } from "./edit.ts";
export { FileMutationQueue } from "./file-mutation-queue.ts";
export type { FindDetails } from "./find.ts";
export type { GrepDetails } from "./grep.ts";
export type { LsDetails } from "./ls.ts";
export type { ReadDetails } from "./read.ts";
export { resolveToolPath } from "./resolve-path.ts";
export { ShellGroups } from "./shell-groups.ts";
export type { TruncateLimits, Truncation } from "./truncate.ts";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatBytes,
  truncateHead,
  truncateLine,
  truncateTail,
} from "./truncate.ts";
export type { WriteDetails } from "./write.ts";
