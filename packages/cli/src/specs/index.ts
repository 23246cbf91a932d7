// Every command's spec, through one module: main (for help) and each command (for parsing) import
// from here, so the bundle keeps them in one small shared chunk and `gatehouse --help` reads one file.
export { auditSpec, statsSpec, tailSpec, verifySpec } from "./audit-specs.ts";
export { hookClaudeSpec, hookCodexSpec, hookInstallSpec, hookSpec } from "./hook-specs.ts";
export {
  extensionsSpec,
  initExtensionSpec,
  initSpec,
  modelsSpec,
  policyCheckSpec,
  policySpec,
  toolsSpec,
  trustSpec,
} from "./project-specs.ts";
export { runSpec } from "./run-spec.ts";
export { sessionCheckSpec, sessionShowSpec, sessionSpec, sessionsSpec } from "./session-specs.ts";
