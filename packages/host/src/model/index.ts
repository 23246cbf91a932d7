export type {
  AssistantStreamBuilderOptions,
  DeltaEvent,
  EndEvent,
  FinishDetails,
  OversizedArguments,
  StartEvent,
  ToolArgumentsError,
} from "./assistant-stream-builder.ts";
export { AssistantStreamBuilder } from "./assistant-stream-builder.ts";
export { loadScript, parseScript } from "./load-script.ts";
export { PartialJsonParser, parsePartialJson } from "./partial-json.ts";
// Provider specs and configuration are light; the adapters themselves (which load the AI SDK)
// are only reachable through "@gatehouse/host/providers" or a dynamic import, so a scripted run
// never pays for them.
export type { ConfiguredProvider, ModelSettings, ModelSpec, ResolveProviderOptions } from "./providers/model-spec.ts";
export { listConfiguredProviders, parseModelSpec, resolveProviderOptions } from "./providers/model-spec.ts";
export type { ProviderInfo, ProviderName } from "./providers/provider-catalog.ts";
export { PROVIDERS } from "./providers/provider-catalog.ts";
export type { ProviderModelOptions } from "./providers/types.ts";
export type { Script, ScriptBlock, ScriptTurn } from "./script-schema.ts";
export { scriptSchema } from "./script-schema.ts";
export type { ScriptedModel, ScriptedModelOptions, ScriptedRequest } from "./scripted-model.ts";
export { createScriptedModel } from "./scripted-model.ts";
export type { Model, ModelRequest, ModelStreamEvent } from "./types.ts";
