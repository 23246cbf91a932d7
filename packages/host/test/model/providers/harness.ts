import type { AnyToolDefinition, AssistantMessage, Usage } from "@gatehouse/sdk";
import { createProviderModel } from "../../../src/model/providers/create-provider-model.ts";
import type { ProviderName } from "../../../src/model/providers/provider-catalog.ts";
import type { ProviderModelOptions } from "../../../src/model/providers/types.ts";
import type { Model, ModelRequest, ModelStreamEvent } from "../../../src/model/types.ts";
import { createBuiltinTools } from "../../../src/tools/index.ts";

/** The key every test model sends; the 401 fixture echoes it so redaction is tested for real. */
export const TEST_KEY = "sk-test-gatehouse-SECRET-0123456789";

/** What the tests know about each provider's fixtures. */
export interface ProviderCase {
  provider: ProviderName;
  /** The fixture folder, named after the wire API the SDK calls. */
  dir: string;
  keyEnv: string;
  /** How many events of `text.sse` lead up to and include the first text delta. */
  firstTextDelta: number;
  /** The thinking text of `text.sse`, when the provider streams reasoning. */
  thinking?: string;
  textUsage: Usage;
  /** The headers of the 429 fixture: a 60 ms wait in the provider's own convention. */
  rateLimitHeaders: Record<string, string>;
  parallelIds: [string, string];
  splitId: string;
  malformedId: string;
}

/** One case per provider; the OpenAI fixtures are Responses API streams (the SDK's default). */
export const CASES: ProviderCase[] = [
  {
    provider: "openai",
    dir: "openai-responses",
    keyEnv: "OPENAI_API_KEY",
    firstTextDelta: 5,
    textUsage: { input: 37, output: 6, cacheRead: 12, totalTokens: 43 },
    rateLimitHeaders: { "retry-after-ms": "60" },
    parallelIds: ["call_Rk1eMf6pS2Vq8xHn4JtYbA0c", "call_Zp3uQw9LmT0cVy7bXs2NdE5f"],
    splitId: "call_Wm8tHq2Lp5Xz0Rc7Vd1Ny4Kb",
    malformedId: "call_Qn4vBx7Kc1Mz8Tr2Ws6Pl9Ja",
  },
  {
    provider: "anthropic",
    dir: "anthropic-messages",
    keyEnv: "ANTHROPIC_API_KEY",
    firstTextDelta: 9,
    thinking: "The user wants a status.",
    textUsage: { input: 600, output: 24, cacheRead: 128, cacheWrite: 0, totalTokens: 624 },
    // Anthropic sends whole seconds; a fraction keeps the test fast and still proves the header is read.
    rateLimitHeaders: { "retry-after": "0.06" },
    parallelIds: ["toolu_01A09q90qw90lq917835lq9", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"],
    splitId: "toolu_01Kp3Ld8Vb6Nm2Qs9Tx4Zc7W",
    malformedId: "toolu_01Hq6Mw3Pz8Rc5Vt1Yb9Kd2F",
  },
  {
    provider: "openai-compatible",
    dir: "chat-completions",
    keyEnv: "OPENAI_COMPATIBLE_API_KEY",
    firstTextDelta: 4,
    thinking: "The user wants a status.",
    textUsage: { input: 311, output: 17, cacheRead: 0, totalTokens: 328 },
    rateLimitHeaders: { "retry-after-ms": "60" },
    parallelIds: ["call_DdmO9pD3xa9XTPNJ32zg2hcA", "call_ABqbMfRd3L1Hr42pP0zhsMPt"],
    splitId: "call_Xh2Lq8Nz4Vw7Tb1Rm6Pc3Ks9",
    malformedId: "call_Jt5Wn1Qx8Zr3Yp6Lb2Mv9Hc4",
  },
];

/** The read and write built-ins: what the fixtures call. */
export function fileTools(): AnyToolDefinition[] {
  return createBuiltinTools().filter((tool) => tool.name === "read" || tool.name === "write");
}

/** A one-message request with the read and write tools. */
export function simpleRequest(): ModelRequest {
  return {
    systemPrompt: "You are a careful coding agent.",
    messages: [{ role: "user", content: "Check the tests.", timestamp: 1 }],
    tools: fileTools(),
  };
}

/** A provider model pointed at the fixture server, with fast retries unless overridden. */
export function fixtureModel(c: ProviderCase, baseURL: string, overrides: Partial<ProviderModelOptions> = {}): Model {
  return createProviderModel({
    provider: c.provider,
    model: c.provider === "anthropic" ? "claude-sonnet-4-5" : "gpt-4.1",
    baseURL,
    apiKey: TEST_KEY,
    retryBaseMs: 0,
    ...overrides,
  });
}

/** Streams one request to the end; `onEvent` sees each event as it arrives. */
export async function collect(
  model: Model,
  options: { request?: ModelRequest; signal?: AbortSignal; onEvent?: (event: ModelStreamEvent) => void } = {},
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  const signal = options.signal ?? new AbortController().signal;
  for await (const event of model.stream(options.request ?? simpleRequest(), signal)) {
    events.push(event);
    options.onEvent?.(event);
  }
  return events;
}

/** The step names: `start`, the delta kinds, `end`. */
export function kinds(events: readonly ModelStreamEvent[]): string[] {
  return events.map((e) => (e.type === "delta" ? e.event.type : e.type));
}

/** The finalized message; fails unless the stream ended with exactly one `end`, last. */
export function final(events: readonly ModelStreamEvent[]): AssistantMessage {
  const ends = events.filter((e) => e.type === "end");
  const last = events.at(-1);
  if (ends.length !== 1 || last?.type !== "end") throw new Error(`bad stream ending: ${kinds(events).join(",")}`);
  return last.message;
}

/** Rejects if `promise` does not settle within `ms`, so a missing event fails fast with a reason. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref()),
  ]);
}
