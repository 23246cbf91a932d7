/** The model providers Gatehouse talks to through the Vercel AI SDK. */
export type ProviderName = "openai" | "anthropic" | "openai-compatible";

/** What Gatehouse knows about one provider: its conventional environment variables and wire API. */
export interface ProviderInfo {
  name: ProviderName;
  /** The variable that conventionally holds the API key. */
  keyEnv: string;
  /** The variable that overrides the base URL, when there is a convention for one. */
  baseURLEnv: string;
  /** Whether a request without a key is a configuration error (local servers often need none). */
  keyRequired: boolean;
  /** The HTTP API the SDK calls, for messages and `gatehouse models`. */
  api: string;
}

/** Every provider, in the order `gatehouse models` lists them. */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    name: "openai",
    keyEnv: "OPENAI_API_KEY",
    baseURLEnv: "OPENAI_BASE_URL",
    keyRequired: true,
    api: "OpenAI Responses API (POST /responses)",
  },
  {
    name: "anthropic",
    keyEnv: "ANTHROPIC_API_KEY",
    baseURLEnv: "ANTHROPIC_BASE_URL",
    keyRequired: true,
    api: "Anthropic Messages API (POST /messages)",
  },
  {
    name: "openai-compatible",
    keyEnv: "OPENAI_COMPATIBLE_API_KEY",
    baseURLEnv: "OPENAI_COMPATIBLE_BASE_URL",
    keyRequired: false,
    api: "OpenAI Chat Completions (POST /chat/completions)",
  },
];

/** The names accepted before the colon of a model spec. */
export const PROVIDER_NAMES: readonly ProviderName[] = PROVIDERS.map((info) => info.name);

/** Whether `name` is a provider Gatehouse supports. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/** The catalog entry of a provider. */
export function providerInfo(name: ProviderName): ProviderInfo {
  const info = PROVIDERS.find((entry) => entry.name === name);
  if (info === undefined) throw new Error(`unreachable: unknown provider ${name}`);
  return info;
}
