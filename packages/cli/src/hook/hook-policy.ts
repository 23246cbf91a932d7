import { homedir } from "node:os";
import type { AgentHookSettings } from "@gatehouse/host/hook-plan";
import { gatehouseHome } from "@gatehouse/host/hook-plan";
import { compilePolicy, type Policy, type ProtectedPathsConfig } from "@gatehouse/protected-paths/decide";
import type { ReservedPath } from "@gatehouse/sdk";

/**
 * protected-paths' policy for another agent's calls, from its effective configuration: the same
 * rules, except that a shell command is decided knowing nothing will sandbox it — with
 * `agentHooks.bash` "strict" (the default) every command whose effects the analysis does not
 * model is refused; with "analyze", the best-effort analysis alone decides.
 * Contract: the configuration is the one the extension parsed (defaults filled in).
 */
export function hookPolicy(options: {
  config: unknown;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  agentHooks: AgentHookSettings;
  /** What Gatehouse and the extensions reserved: the audit log and key, the managed settings. */
  reserved: readonly ReservedPath[];
}): Policy {
  return compilePolicy(options.config as ProtectedPathsConfig, {
    cwd: options.projectDir,
    home: homedir(),
    gatehouseHome: gatehouseHome(options.env),
    reserved: options.reserved,
    unconfinedBash: options.agentHooks.bash === "analyze" ? "analyze" : "unconfined",
  });
}
