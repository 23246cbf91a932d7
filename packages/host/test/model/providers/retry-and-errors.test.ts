import { APICallError, LoadAPIKeyError } from "ai";
import { describe, expect, it } from "vitest";
import { describeProviderError, redactSecrets } from "../../../src/model/providers/provider-errors.ts";
import { decideRetry, type RetryPolicy, retryAfterMs } from "../../../src/model/providers/retry-policy.ts";

const policy: RetryPolicy = { maxRetries: 3, baseMs: 100, maxWaitMs: 10_000 };

function apiError(
  statusCode: number | undefined,
  headers: Record<string, string> = {},
  message = "nope",
): APICallError {
  return new APICallError({
    message,
    url: "https://api.example.test/v1/responses",
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    responseHeaders: headers,
  });
}

describe("retryAfterMs", () => {
  it("prefers retry-after-ms, then reads retry-after as seconds or as an HTTP date", () => {
    expect(retryAfterMs({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }, now)).toBe(3000);
    expect(retryAfterMs({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterMs({})).toBeUndefined();
  });
});

describe("decideRetry", () => {
  it("retries 429 and 5xx with the header's wait, else with doubling backoff", () => {
    expect(decideRetry({ error: apiError(429, { "retry-after": "1" }), attempt: 0, policy })).toEqual({
      retry: true,
      waitMs: 1000,
    });
    expect(decideRetry({ error: apiError(503), attempt: 0, policy })).toEqual({ retry: true, waitMs: 100 });
    expect(decideRetry({ error: apiError(500), attempt: 2, policy })).toEqual({ retry: true, waitMs: 400 });
    // The SDK marks a request that never got an answer as retryable.
    const unreachable = new APICallError({
      message: "Cannot connect",
      url: "u",
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(decideRetry({ error: unreachable, attempt: 0, policy })).toEqual({ retry: true, waitMs: 100 });
  });

  it("never retries auth or bad-request errors, nor past maxRetries, nor a wait above maxWaitMs", () => {
    expect(decideRetry({ error: apiError(401), attempt: 0, policy })).toEqual({
      retry: false,
      reason: "not-retryable",
    });
    expect(decideRetry({ error: apiError(400), attempt: 0, policy })).toEqual({
      retry: false,
      reason: "not-retryable",
    });
    expect(decideRetry({ error: new Error("x"), attempt: 0, policy })).toEqual({
      retry: false,
      reason: "not-retryable",
    });
    expect(decideRetry({ error: apiError(429), attempt: 3, policy })).toEqual({ retry: false, reason: "exhausted" });
    expect(decideRetry({ error: apiError(429, { "retry-after": "60" }), attempt: 0, policy })).toEqual({
      retry: false,
      reason: "wait-too-long",
      waitMs: 60_000,
    });
  });

  it("caps the backoff at maxWaitMs", () => {
    const slow: RetryPolicy = { maxRetries: 10, baseMs: 5000, maxWaitMs: 8000 };
    expect(decideRetry({ error: apiError(502), attempt: 4, policy: slow })).toEqual({ retry: true, waitMs: 8000 });
  });
});

describe("describeProviderError", () => {
  const ctx = { provider: "openai", keyEnv: "OPENAI_API_KEY", apiKey: "sk-live-abcdef123456", attempts: 1 };

  it("removes the key in use and key-shaped text from everything it says", () => {
    const error = apiError(401, {}, "Incorrect API key provided: sk-live-abcdef123456 (also sk-proj-****wxyz).");
    const message = describeProviderError(error, ctx);
    expect(message).toBe(
      "Authentication failed for openai (HTTP 401): check OPENAI_API_KEY. openai said: Incorrect API key provided: [redacted] (also [redacted]).",
    );
    expect(redactSecrets("Bearer abc.def token", undefined)).toBe("[redacted] token");
  });

  it("names the variable when no key could be loaded", () => {
    const error = new LoadAPIKeyError({ message: "OpenAI API key is missing." });
    expect(describeProviderError(error, ctx)).toBe("No API key for openai: set OPENAI_API_KEY.");
  });

  it("says which server rejected a request and describes non-HTTP errors", () => {
    expect(describeProviderError(apiError(400, {}, "Unknown parameter: 'x'"), ctx)).toBe(
      "openai rejected the request (HTTP 400): Unknown parameter: 'x'.",
    );
    expect(describeProviderError(apiError(502), { ...ctx, attempts: 4 })).toBe(
      "openai server error (HTTP 502) after 4 attempts: nope.",
    );
    expect(describeProviderError({ type: "overloaded_error", message: "Overloaded" }, ctx)).toBe(
      "openai request failed: overloaded_error: Overloaded",
    );
  });
});
