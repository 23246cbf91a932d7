import { protectedPaths } from "./extension.ts";

export type { BashMode } from "./check/check-exec.ts";
export type { TreeSearch } from "./check/check-search.ts";
export type { EvaluateOptions } from "./check/evaluate-path.ts";
export type { Access } from "./check/policy-context.ts";
export { checkCall } from "./check-call.ts";
export type { ProtectedPathsConfig, ProtectedPathsConfigInput } from "./config.ts";
export { protectedPathsConfigSchema, protectedPathsMergeRules } from "./config.ts";
export { createPolicy } from "./create-policy.ts";
export type { Decision } from "./decision.ts";
export { protectedPaths } from "./extension.ts";
export type { DirEntry, FileInfo, PolicyFs } from "./paths/policy-fs.ts";
export { nodePolicyFs } from "./paths/policy-fs.ts";
export type { Spelling, SpellingForm } from "./paths/spellings.ts";
export type { WorkspaceRoot } from "./paths/workspace.ts";
export type { Policy, PolicyOptions, PolicySettings } from "./policy.ts";
export { compilePolicy } from "./policy.ts";
export { readProtectedPathsConfig } from "./read-config.ts";
export { DEFAULT_DENY_READ, DEFAULT_DENY_WRITE } from "./rules/policy-rules.ts";

/** The extension, as the host loads it from `extensions: ["@gatehouse/protected-paths"]`. */
export default protectedPaths;
