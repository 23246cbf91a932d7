import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { ProviderModelOptions } from "./types.ts";

/** The connection settings every SDK provider factory accepts. */
interface Connection {
  baseURL?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

function connection(options: ProviderModelOptions): Connection {
  const settings: Connection = {};
  if (options.baseURL !== undefined) settings.baseURL = options.baseURL;
  if (options.apiKey !== undefined) settings.apiKey = options.apiKey;
  if (options.headers !== undefined) settings.headers = options.headers;
  if (options.fetch !== undefined) settings.fetch = options.fetch;
  return settings;
}

/**
 * The AI SDK language model for the options.
 * Contract: `openai` is the SDK's default OpenAI model, which calls the Responses API
 * (`POST {baseURL}/responses`); `anthropic` calls the Messages API (`POST {baseURL}/messages`);
 * `openai-compatible` calls Chat Completions (`POST {baseURL}/chat/completions`) and asks for usage
 * in the stream. The caller has checked that `openai-compatible` has a baseURL.
 */
export function createLanguageModel(options: ProviderModelOptions): LanguageModel {
  const settings = connection(options);
  switch (options.provider) {
    case "openai":
      return createOpenAI(settings)(options.model);
    case "anthropic":
      return createAnthropic(settings)(options.model);
    case "openai-compatible":
      return createOpenAICompatible({
        ...settings,
        baseURL: options.baseURL ?? "",
        name: options.name ?? "openai-compatible",
        includeUsage: true,
      })(options.model);
  }
}
