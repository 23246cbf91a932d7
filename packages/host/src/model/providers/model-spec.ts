import { GatehouseError } from "../../common/errors.ts";
import { isProviderName, PROVIDER_NAMES, PROVIDERS, type ProviderName, providerInfo } from "./provider-catalog.ts";
import type { ProviderModelOptions } from "./types.ts";

/** A parsed `provider:model` spec. */
export interface ModelSpec {
  provider: ProviderName;
  model: string;
}

/** The `model` section of settings: which model, and how to call it. API keys never live here. */
export interface ModelSettings {
  /** A `provider:model` spec, used when none is given on the command line. */
  model?: string;
  baseURL?: string;
  /** The provider name reported for `openai-compatible`. */
  name?: string;
  headers?: Record<string, string>;
  maxRetries?: number;
  retryBaseMs?: number;
  temperature?: number;
  maxOutputTokens?: number;
}

/** Options of `resolveProviderOptions`. */
export interface ResolveProviderOptions {
  /** `--model`; wins over `settings.model`. */
  spec?: string | undefined;
  /** `--base-url`; wins over settings and the environment. */
  baseURL?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  settings?: ModelSettings | undefined;
}

/** One provider as `gatehouse models` shows it; never the key itself. */
export interface ConfiguredProvider {
  provider: ProviderName;
  /** The variable the key is read from. */
  keyEnv: string;
  hasKey: boolean;
  /** The variable the base URL is read from, and its value (credentials removed) when set. */
  baseURLEnv: string;
  baseURL?: string;
  /** Whether a `--model <provider>:…` would start without a configuration error. */
  ready: boolean;
  api: string;
}

const EXAMPLE = "e.g. openai:gpt-4.1, anthropic:claude-sonnet-4-5 or openai-compatible:qwen2.5-coder:7b";

/**
 * Parses `provider:model`; the model is everything after the first colon, so
 * `openai-compatible:qwen2.5-coder:7b` keeps its tag.
 * Contract: throws `GH_USAGE` for a spec without a colon, an empty provider or model, or an unknown
 * provider, naming the supported ones.
 */
export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(":");
  const provider = colon === -1 ? "" : spec.slice(0, colon).trim();
  const model = colon === -1 ? "" : spec.slice(colon + 1).trim();
  if (provider === "" || model === "") {
    throw new GatehouseError("GH_USAGE", `Invalid model "${spec}": expected provider:model, ${EXAMPLE}.`);
  }
  if (!isProviderName(provider)) {
    throw new GatehouseError(
      "GH_USAGE",
      `Unknown provider "${provider}" in "${spec}": use one of ${PROVIDER_NAMES.join(", ")}.`,
    );
  }
  return { provider, model };
}

/**
 * The options of `createProviderModel` for a spec, from flags, settings and the environment.
 * Contract: the key comes from the provider's conventional variable (OPENAI_API_KEY,
 * ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY); the base URL from `baseURL`, then
 * `settings.baseURL`, then OPENAI_BASE_URL / ANTHROPIC_BASE_URL / OPENAI_COMPATIBLE_BASE_URL.
 * Throws `GH_USAGE` for no spec at all, a bad spec, a missing key (naming the variable; not for
 * openai-compatible, whose local servers often need none) and openai-compatible without a base URL.
 * Error messages never contain a key.
 */
export function resolveProviderOptions(options: ResolveProviderOptions): ProviderModelOptions {
  const { env, settings } = options;
  const spec = options.spec ?? settings?.model;
  if (spec === undefined || spec.trim() === "") {
    throw new GatehouseError("GH_USAGE", `No model given: pass --model provider:model (${EXAMPLE}).`);
  }
  const { provider, model } = parseModelSpec(spec);
  const info = providerInfo(provider);
  const apiKey = nonEmpty(env[info.keyEnv]);
  if (apiKey === undefined && info.keyRequired) {
    throw new GatehouseError("GH_USAGE", `No API key for ${provider}: set ${info.keyEnv}.`);
  }
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(settings?.baseURL) ?? nonEmpty(env[info.baseURLEnv]);
  if (provider === "openai-compatible" && baseURL === undefined) {
    throw new GatehouseError(
      "GH_USAGE",
      `openai-compatible needs a base URL: pass --base-url or set ${info.baseURLEnv}, e.g. http://localhost:11434/v1.`,
    );
  }
  const resolved: ProviderModelOptions = { provider, model };
  if (apiKey !== undefined) resolved.apiKey = apiKey;
  if (baseURL !== undefined) resolved.baseURL = baseURL;
  if (settings?.name !== undefined) resolved.name = settings.name;
  if (settings?.headers !== undefined) resolved.headers = { ...settings.headers };
  if (settings?.maxRetries !== undefined) resolved.maxRetries = settings.maxRetries;
  if (settings?.retryBaseMs !== undefined) resolved.retryBaseMs = settings.retryBaseMs;
  if (settings?.temperature !== undefined) resolved.temperature = settings.temperature;
  if (settings?.maxOutputTokens !== undefined) resolved.maxOutputTokens = settings.maxOutputTokens;
  return resolved;
}

/**
 * Which providers the environment configures, for `gatehouse models`.
 * Contract: reports whether a key is set, never the key; base URLs are shown without credentials.
 */
export function listConfiguredProviders(env: Readonly<Record<string, string | undefined>>): ConfiguredProvider[] {
  return PROVIDERS.map((info) => {
    const hasKey = nonEmpty(env[info.keyEnv]) !== undefined;
    const baseURL = nonEmpty(env[info.baseURLEnv]);
    const entry: ConfiguredProvider = {
      provider: info.name,
      keyEnv: info.keyEnv,
      hasKey,
      baseURLEnv: info.baseURLEnv,
      ready: info.keyRequired ? hasKey : baseURL !== undefined,
      api: info.api,
    };
    if (baseURL !== undefined) entry.baseURL = withoutCredentials(baseURL);
    return entry;
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, "//");
  }
}
