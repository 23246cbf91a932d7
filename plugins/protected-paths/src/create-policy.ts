import { type ProtectedPathsConfigInput, protectedPathsConfigSchema } from "./config.ts";
import { compilePolicy, type Policy, type PolicyOptions } from "./policy.ts";

/**
 * Compiles a policy from a `protected-paths` configuration.
 * Contract: the configuration is parsed with `protectedPathsConfigSchema` (throws a ZodError when it
 * is invalid: validate first where a clear message matters), then compiled by `compilePolicy`.
 */
export function createPolicy(config: ProtectedPathsConfigInput, options: PolicyOptions): Policy {
  return compilePolicy(protectedPathsConfigSchema.parse(config), options);
}
