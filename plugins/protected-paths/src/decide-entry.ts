// The `@gatehouse/protected-paths/decide` entry: the compiled policy and the call check without
// the schema library or the extension, for processes that only decide (agent hooks).
export type { TreeSearch } from "./check/check-search.ts";
export { checkCall } from "./check-call.ts";
export type { ProtectedPathsConfig } from "./config.ts";
export type { Decision } from "./decision.ts";
export { compilePolicy, type Policy, type PolicyOptions } from "./policy.ts";

/** This entry's own file URL: an agent hook's stored plan is invalidated when the deciding code changes. */
export const DECIDE_MODULE_URL: string = import.meta.url;
