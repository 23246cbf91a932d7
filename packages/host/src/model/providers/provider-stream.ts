import type { Usage } from "@gatehouse/sdk";
import {
  type CallWarning,
  type FinishReason,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolSet,
} from "ai";
import { abortableSleep } from "../../common/abortable-sleep.ts";
import { errorMessage } from "../../common/errors.ts";
import { AssistantStreamBuilder, type DeltaEvent, type FinishDetails } from "../assistant-stream-builder.ts";
import type { ModelStreamEvent } from "../types.ts";
import { malformedArguments, toFinish, toUsage } from "./finish-mapping.ts";
import { describeProviderError, type ErrorContext } from "./provider-errors.ts";
import { decideRetry, type RetryPolicy } from "./retry-policy.ts";
import { StreamNormalizer } from "./stream-normalizer.ts";

const ABORTED = "Request aborted";

/** Everything one model request needs, already translated for the SDK. */
export interface ProviderTurn {
  model: LanguageModel;
  system: string | undefined;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  retry: RetryPolicy;
  errors: Omit<ErrorContext, "attempts" | "decision">;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  onWarning?: ((warning: string) => void) | undefined;
  /** Argument text past this many bytes is not kept (the loop refuses the call). */
  maxArgumentBytes?: number | undefined;
}

/** How one attempt ended. */
type Attempt =
  | { kind: "finished"; reason: FinishReason; raw: string | undefined; usage: Usage }
  | { kind: "failed"; error: unknown }
  | { kind: "aborted" }
  | { kind: "incomplete" };

/**
 * Streams one assistant message from the provider as ModelStreamEvents.
 * Contract: never throws. One SDK step per attempt (tools have no `execute`, and `stopWhen` stops
 * after the first step), so the SDK never runs a tool or continues on its own. A retryable failure
 * (429, 5xx, no connection) is retried only while nothing has been streamed, waiting as
 * `decideRetry` says; the wait honours abort. Failures end the message with stopReason `error` and
 * a message from `describeProviderError`, keeping what was streamed; abort ends it with `aborted`.
 */
export async function* streamProviderTurn(turn: ProviderTurn): AsyncGenerator<ModelStreamEvent> {
  const builder = new AssistantStreamBuilder({ maxArgumentBytes: turn.maxArgumentBytes });
  const normalizer = new StreamNormalizer(builder);
  yield builder.start();
  for (let attempt = 0; ; attempt++) {
    let outcome: Attempt;
    try {
      outcome = yield* runAttempt(turn, normalizer);
    } catch (error) {
      outcome = { kind: "failed", error };
    }
    if (turn.signal.aborted || outcome.kind === "aborted") {
      yield* safeClose(normalizer);
      yield builder.finish("aborted", { errorMessage: ABORTED });
      return;
    }
    if (outcome.kind === "failed") {
      const decision = normalizer.hasContent
        ? undefined
        : decideRetry({ error: outcome.error, attempt, policy: turn.retry });
      if (decision?.retry) {
        await abortableSleep(decision.waitMs, turn.signal);
        continue; // an abort during the wait is noticed at the top of the next attempt
      }
      yield* safeClose(normalizer);
      const ctx: ErrorContext = { ...turn.errors, attempts: attempt + 1 };
      if (decision !== undefined) ctx.decision = decision;
      yield builder.finish("error", { errorMessage: describeProviderError(outcome.error, ctx) });
      return;
    }
    yield* safeClose(normalizer);
    yield builder.finish(...finishOf(outcome, builder, normalizer, turn.errors.provider));
    return;
  }
}

async function* runAttempt(turn: ProviderTurn, normalizer: StreamNormalizer): AsyncGenerator<DeltaEvent, Attempt> {
  if (turn.signal.aborted) return { kind: "aborted" };
  const result = streamText({
    model: turn.model,
    ...(turn.system === undefined ? {} : { system: turn.system }),
    messages: turn.messages,
    ...(Object.keys(turn.tools).length === 0 ? {} : { tools: turn.tools }),
    ...(turn.temperature === undefined ? {} : { temperature: turn.temperature }),
    ...(turn.maxOutputTokens === undefined ? {} : { maxOutputTokens: turn.maxOutputTokens }),
    maxRetries: 0, // retries are ours: bounded, header-aware, and only before content
    stopWhen: stepCountIs(1),
    abortSignal: turn.signal,
    onError: () => {}, // errors arrive as stream parts; the default would print them
  });
  let finish: Attempt = { kind: "incomplete" };
  for await (const part of result.fullStream) {
    if (part.type === "error") return { kind: "failed", error: part.error };
    if (part.type === "abort") return { kind: "aborted" };
    if (part.type === "start-step") reportWarnings(turn, part.warnings);
    if (part.type === "finish") {
      const usage = toUsage(part.totalUsage);
      finish = { kind: "finished", reason: part.finishReason, raw: part.rawFinishReason, usage };
    }
    for (const event of normalizer.push(part)) yield event;
  }
  return finish;
}

function finishOf(
  outcome: Exclude<Attempt, { kind: "failed" | "aborted" }>,
  builder: AssistantStreamBuilder,
  normalizer: StreamNormalizer,
  provider: string,
): [Parameters<AssistantStreamBuilder["finish"]>[0], FinishDetails] {
  // "other" with no raw reason: the provider never sent its closing event (response.completed,
  // message_delta), so the stream was cut short even though the connection ended cleanly.
  if (outcome.kind === "incomplete" || (outcome.reason === "other" && outcome.raw === undefined)) {
    const details: FinishDetails = {
      errorMessage: `The response from ${provider} ended before it was complete. What arrived is kept.`,
    };
    if (outcome.kind === "finished") details.usage = outcome.usage;
    return ["error", details];
  }
  const problems = [...builder.argumentErrors.map((problem) => problem.message), ...normalizer.problems];
  const malformed = malformedArguments(problems, outcome.reason);
  if (malformed !== undefined) return ["error", { errorMessage: malformed, usage: outcome.usage }];
  const { stopReason, errorMessage: message } = toFinish(outcome.reason, builder.message, provider);
  const details: FinishDetails = { usage: outcome.usage };
  if (message !== undefined) details.errorMessage = message;
  return [stopReason, details];
}

/** Closes open blocks; a builder misuse here is a bug, reported in the message rather than thrown. */
function* safeClose(normalizer: StreamNormalizer): Generator<DeltaEvent> {
  try {
    yield* normalizer.close();
  } catch (error) {
    normalizer.problems.push(`Internal error while closing the stream: ${errorMessage(error)}.`);
  }
}

/** Hands the SDK's call warnings to `onWarning`; a throwing observer is ignored (observers fail open). */
function reportWarnings(turn: ProviderTurn, warnings: readonly CallWarning[] | undefined): void {
  if (turn.onWarning === undefined || warnings === undefined) return;
  for (const warning of warnings) {
    const what =
      warning.type === "other"
        ? warning.message
        : `${warning.feature}${warning.details === undefined ? "" : ` (${warning.details})`}`;
    try {
      turn.onWarning(`${turn.errors.provider}: ${warning.type} ${what}`);
    } catch {
      // A warning is advice; failing to show it must not fail the request.
    }
  }
}
