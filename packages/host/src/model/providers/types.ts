import type { ProviderName } from "./provider-catalog.ts";

/** Options of `createProviderModel`: which model, where, and how patiently. */
export interface ProviderModelOptions {
  provider: ProviderName;
  /** The provider's model id, e.g. `gpt-4.1` or `claude-sonnet-4-5`. */
  model: string;
  /** The API root the SDK posts under (`…/v1`); required for `openai-compatible`. */
  baseURL?: string;
  /** The API key; never logged or put in a message. Absent: the SDK reads the provider's variable. */
  apiKey?: string;
  /** The provider name the SDK reports for `openai-compatible` (default `openai-compatible`). */
  name?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** How many times a retryable failure (429, 5xx, no connection) is retried before content; default 3. */
  maxRetries?: number;
  /** The first backoff wait when the provider gives no `retry-after`; doubles per attempt; default 1000. */
  retryBaseMs?: number;
  /** The longest wait Gatehouse accepts, from a header or the backoff; default 60000. */
  maxRetryWaitMs?: number;
  /** The fetch the SDK uses (tests, proxies). */
  fetch?: typeof fetch;
  temperature?: number;
  maxOutputTokens?: number;
  /** Receives the SDK's call warnings (unsupported settings and the like) instead of the console. */
  onWarning?: (warning: string) => void;
}
