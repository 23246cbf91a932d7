export { GatehouseError, type GatehouseErrorCode, toError } from "./common/errors.ts";
export type { ConfigExplanation, ConfigKeySource } from "./extensions/config-explanation.ts";
export type { EnabledAt, ExtensionRecord } from "./extensions/types.ts";
export { createHost } from "./host/create-host.ts";
export type { CheckResult, Host, HostOptions, RunOptions, RunResult } from "./host/types.ts";
export type { LoopConfig, LoopHooks, ToolSet, TurnState } from "./loop/index.ts";
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
  type ScriptedModel,
} from "./model/index.ts";
export type { Model, ModelRequest, ModelStreamEvent } from "./model/types.ts";
export type { ToolInfo, ToolSource } from "./tools/tool-registry.ts";
