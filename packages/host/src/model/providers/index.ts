export { createProviderModel } from "./create-provider-model.ts";
export type { ConfiguredProvider, ModelSettings, ModelSpec, ResolveProviderOptions } from "./model-spec.ts";
export { listConfiguredProviders, parseModelSpec, resolveProviderOptions } from "./model-spec.ts";
export type { ProviderInfo, ProviderName } from "./provider-catalog.ts";
export { PROVIDERS } from "./provider-catalog.ts";
export type { ProviderModelOptions } from "./types.ts";
