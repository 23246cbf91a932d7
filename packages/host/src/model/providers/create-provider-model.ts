import { errorMessage, GatehouseError } from "../../common/errors.ts";
import { AssistantStreamBuilder } from "../assistant-stream-builder.ts";
import type { Model, ModelRequest, ModelStreamEvent } from "../types.ts";
import { createLanguageModel } from "./language-model.ts";
import { providerInfo } from "./provider-catalog.ts";
import { redactSecrets } from "./provider-errors.ts";
import { type ProviderTurn, streamProviderTurn } from "./provider-stream.ts";
import { toModelMessages } from "./to-model-messages.ts";
import { toToolSet } from "./tool-set.ts";
import type { ProviderModelOptions } from "./types.ts";

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_RETRY_BASE_MS = 1000;
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

/**
 * A Model backed by a real provider through the Vercel AI SDK (`streamText`, one step per request).
 * Contract: `stream` never throws; it serialises the request (`toModelMessages`, `toToolSet`), streams
 * text, thinking and tool-call deltas with partial JSON arguments, and ends with usage and a mapped
 * stopReason, or with `error`/`aborted` and a message (see `streamProviderTurn`). The SDK never runs
 * a tool. The API key is never part of any message. The SDK's console warnings are turned off for the
 * process unless the embedding application configured `AI_SDK_LOG_WARNINGS` itself: Gatehouse's
 * stdout is machine output under `--json`; pass `onWarning` to receive them.
 * Throws `GH_USAGE` for options that can never work: an empty model, `openai-compatible` without a
 * baseURL, or a maxRetries/retryBaseMs that is not a non-negative integer.
 */
export function createProviderModel(options: ProviderModelOptions): Model {
  checkOptions(options);
  const info = providerInfo(options.provider);
  const model = createLanguageModel(options);
  quietSdkWarnings();
  const label = options.provider === "openai-compatible" ? (options.name ?? options.provider) : options.provider;
  const retry = {
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    baseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    maxWaitMs: options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
  };
  return {
    id: `${options.provider}:${options.model}`,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      let turn: ProviderTurn;
      try {
        turn = {
          model,
          system: request.systemPrompt || undefined, // providers reject an empty system block
          messages: toModelMessages(request.messages),
          tools: toToolSet(request.tools),
          signal,
          retry,
          errors: { provider: label, keyEnv: info.keyEnv, apiKey: options.apiKey },
          temperature: options.temperature,
          maxOutputTokens: options.maxOutputTokens,
          onWarning: options.onWarning,
          maxArgumentBytes: request.maxArgumentBytes,
        };
      } catch (error) {
        return failedRequest(label, redactSecrets(errorMessage(error), options.apiKey));
      }
      return streamProviderTurn(turn);
    },
  };
}

function checkOptions(options: ProviderModelOptions): void {
  if (options.model.trim() === "") throw new GatehouseError("GH_USAGE", "The model id is empty.");
  if (options.provider === "openai-compatible" && !options.baseURL) {
    throw new GatehouseError(
      "GH_USAGE",
      "openai-compatible needs a base URL (--base-url or OPENAI_COMPATIBLE_BASE_URL), e.g. http://localhost:11434/v1.",
    );
  }
  for (const [name, value] of [
    ["maxRetries", options.maxRetries],
    ["retryBaseMs", options.retryBaseMs],
    ["maxRetryWaitMs", options.maxRetryWaitMs],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new GatehouseError("GH_USAGE", `${name} must be a non-negative integer, got ${value}.`);
    }
  }
}

/** A stream for a request that could not even be translated (a tool schema zod cannot convert). */
async function* failedRequest(provider: string, reason: string): AsyncGenerator<ModelStreamEvent> {
  const builder = new AssistantStreamBuilder();
  yield builder.start();
  yield builder.finish("error", { errorMessage: `Cannot build the ${provider} request: ${reason}` });
}

function quietSdkWarnings(): void {
  const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (global.AI_SDK_LOG_WARNINGS === undefined) global.AI_SDK_LOG_WARNINGS = false;
}
