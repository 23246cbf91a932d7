import { APICallError, LoadAPIKeyError } from "ai";
import type { RetryDecision } from "./retry-policy.ts";

/** What an error message may say about the request that failed. */
export interface ErrorContext {
  /** The provider as a person knows it: `openai`, `anthropic`, or an openai-compatible name. */
  provider: string;
  /** The variable the key conventionally comes from. */
  keyEnv: string;
  /** The key in use; only ever used to remove it from text. */
  apiKey?: string | undefined;
  /** How many requests were sent. */
  attempts: number;
  /** Why the last failure was not retried. */
  decision?: RetryDecision;
}

/** Anything that looks like a secret key in provider text (`sk-…`, `sk-ant-…`, long bearer tokens). */
const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_*-]{6,}|\bBearer\s+\S+/gi;

/** Removes the key in use and anything key-shaped from text that will reach a person or a file. */
export function redactSecrets(text: string, apiKey?: string): string {
  const withoutKey = apiKey && apiKey.length >= 4 ? text.split(apiKey).join("[redacted]") : text;
  return withoutKey.replace(KEY_LIKE, "[redacted]");
}

/**
 * A message a person can act on for a failed provider request.
 * Contract: names the provider and, where it helps, the HTTP status, the variable to check and the
 * number of attempts; carries the provider's own explanation when there is one; never contains the
 * API key (the key in use and anything key-shaped is redacted). Never throws.
 */
export function describeProviderError(error: unknown, ctx: ErrorContext): string {
  return redactSecrets(describe(error, ctx), ctx.apiKey);
}

function describe(error: unknown, ctx: ErrorContext): string {
  const { provider } = ctx;
  if (LoadAPIKeyError.isInstance(error)) return `No API key for ${provider}: set ${ctx.keyEnv}.`;
  if (!APICallError.isInstance(error)) return `${provider} request failed: ${plainMessage(error)}`;
  const status = error.statusCode;
  const said = sentence(error.message);
  const tries = ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
  if (status === 401 || status === 403) {
    return `Authentication failed for ${provider} (HTTP ${status}): check ${ctx.keyEnv}. ${provider} said: ${said}`;
  }
  if (status === 429) {
    if (ctx.decision?.retry === false && ctx.decision.reason === "wait-too-long") {
      const seconds = Math.ceil(ctx.decision.waitMs / 1000);
      return `Rate limited by ${provider} (HTTP 429): it asks to wait ${seconds} s, longer than Gatehouse waits; try again later. ${provider} said: ${said}`;
    }
    return `Rate limited by ${provider} (HTTP 429)${tries}: wait and try again, or lower the request rate. ${provider} said: ${said}`;
  }
  if (status !== undefined && status >= 500) return `${provider} server error (HTTP ${status})${tries}: ${said}`;
  if (status === undefined) return `Cannot reach ${provider} at ${error.url}${tries}: ${causeChain(error)}.`;
  if (status >= 200 && status < 300) {
    return `The response stream from ${provider} broke off: ${causeChain(error)}. What arrived before is kept.`;
  }
  return `${provider} rejected the request (HTTP ${status}): ${said}`;
}

/** `terminated (other side closed)`: the innermost reasons of an error, outermost first. */
function causeChain(error: Error): string {
  const reasons: string[] = [];
  let current: unknown = error.cause ?? error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    reasons.push(plainMessage(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const [first, ...rest] = reasons;
  return rest.length === 0 ? (first ?? "unknown error") : `${first} (${rest.join(": ")})`;
}

function plainMessage(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") {
    const { type, message } = value as { type?: unknown; message?: unknown };
    if (typeof message === "string") return typeof type === "string" ? `${type}: ${message}` : message;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
