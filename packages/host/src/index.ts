export { readAgentHookSettings } from "./agent-hooks/agent-hook-settings.ts";
export { type CallEvaluation, type EvaluateCallOptions, evaluateToolCall } from "./agent-hooks/evaluate-call.ts";
export { errorMessage, GatehouseError, type GatehouseErrorCode, toError } from "./common/errors.ts";
export { type DuplicateKey, findDuplicateKey } from "./common/json-duplicate-key.ts";
export { readRegularFile } from "./common/read-regular-file.ts";
export { stderrLogger } from "./common/stderr-logger.ts";
export {
  type AgentHookSettings,
  type ExtensionCode,
  ensurePrivateDir,
  ensureWritableHome,
  gatehouseHome,
  grantTrust,
  revokeTrust,
  type SettingsLevelName,
  type TrustOptions,
  type TrustStatus,
  trustCommand,
  trustStatuses,
} from "./config/index.ts";
export { type ConfigExplanation, type ConfigKeySource, levelLabel } from "./extensions/config-explanation.ts";
export type { EnabledAt, ExtensionRecord } from "./extensions/types.ts";
export { createHost } from "./host/create-host.ts";
export { describeEnabledAt } from "./host/guard-failures.ts";
export { openProject, type ProjectExtensions } from "./host/project-extensions.ts";
export type { CheckResult, Host, HostOptions, RunOptions, RunResult } from "./host/types.ts";
export type { GuardPins, LoopConfig, LoopHooks, PinIdentity, ToolSet, TurnState } from "./loop/index.ts";
export { runAgentLoop } from "./loop/index.ts";
export {
  type ConfiguredProvider,
  createScriptedModel,
  listConfiguredProviders,
  loadScript,
  type ModelSettings,
  PROVIDERS,
  type ProviderModelOptions,
  type ProviderName,
  parseModelSpec,
  parseScript,
  resolveProviderOptions,
  type Script,
  type ScriptBlock,
  type ScriptedModel,
  type ScriptTurn,
} from "./model/index.ts";
export type { Model, ModelRequest, ModelStreamEvent } from "./model/types.ts";
export {
  type BuiltContext,
  checkSession,
  NO_RESULT_TEXT,
  renderSessionTree,
  Session,
  type SessionCheck,
  type SessionEntry,
  type SessionHeader,
  type SessionOptions,
  type SessionProblem,
} from "./session/index.ts";
export type { ToolInfo, ToolSource } from "./tools/tool-registry.ts";
