import { APICallError } from "ai";

/** How patiently a provider request is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff wait when the provider gives no hint; doubles per attempt. */
  baseMs: number;
  /** The longest single wait Gatehouse accepts. */
  maxWaitMs: number;
}

/** What to do after a failed attempt. */
export type RetryDecision =
  | { retry: true; waitMs: number }
  | { retry: false; reason: "not-retryable" | "exhausted" }
  | { retry: false; reason: "wait-too-long"; waitMs: number };

/**
 * Whether a failure is worth another attempt: rate limits (429), timeouts and conflicts (408/409),
 * server errors (5xx), and requests that never got an answer (no connection, reset).
 */
export function isRetryable(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  return error.isRetryable || status === 429 || (status !== undefined && status >= 500);
}

/**
 * The provider's own wait hint in ms, from `retry-after-ms` (ms) or `retry-after` (seconds or an
 * HTTP date), or undefined when there is none that parses.
 */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers["retry-after"];
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && /^\s*[\d.]+\s*$/.test(value)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Decides whether to retry after attempt number `attempt` (0 for the first) failed with `error`.
 * Contract: the provider's hint wins over the backoff (`baseMs * 2^attempt`, capped at maxWaitMs); a
 * hint longer than maxWaitMs is not waited for (the caller reports it). The caller only asks while
 * nothing has been streamed, so a retry never repeats content.
 */
export function decideRetry(options: { error: unknown; attempt: number; policy: RetryPolicy }): RetryDecision {
  const { error, attempt, policy } = options;
  if (!isRetryable(error)) return { retry: false, reason: "not-retryable" };
  if (attempt >= policy.maxRetries) return { retry: false, reason: "exhausted" };
  const hinted = retryAfterMs(APICallError.isInstance(error) ? error.responseHeaders : undefined);
  if (hinted !== undefined) {
    return hinted > policy.maxWaitMs
      ? { retry: false, reason: "wait-too-long", waitMs: hinted }
      : { retry: true, waitMs: hinted };
  }
  return { retry: true, waitMs: Math.min(policy.baseMs * 2 ** attempt, policy.maxWaitMs) };
}
