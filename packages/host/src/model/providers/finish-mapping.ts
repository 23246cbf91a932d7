import type { AssistantMessage, StopReason, Usage } from "@gatehouse/sdk";
import type { FinishReason, LanguageModelUsage } from "ai";

/** How one finished stream ends our message. */
export interface Finish {
  stopReason: StopReason;
  errorMessage?: string;
}

/**
 * The SDK's token usage in our shape.
 * Contract: `input` is every prompt token as the SDK reports it (cache reads and writes included);
 * `cacheRead`/`cacheWrite`/`totalTokens` are set only when the provider reported them. Missing
 * counts are 0.
 */
export function toUsage(usage: LanguageModelUsage): Usage {
  const result: Usage = { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 };
  const { cacheReadTokens, cacheWriteTokens } = usage.inputTokenDetails ?? {};
  if (cacheReadTokens !== undefined) result.cacheRead = cacheReadTokens;
  if (cacheWriteTokens !== undefined) result.cacheWrite = cacheWriteTokens;
  if (usage.totalTokens !== undefined) result.totalTokens = usage.totalTokens;
  return result;
}

/**
 * Our stopReason for a stream that reached its finish part.
 * Contract: `tool-calls` → `toolUse`; `stop` and `other` → `toolUse` when the message holds tool
 * calls (some OpenAI-compatible servers say `stop` after calling tools), else `stop` (the caller
 * treats `other` without a raw provider reason as a stream cut short); `length` →
 * `length` (tool calls are kept: execution follows content); `content-filter` and `error` →
 * `error` with a message naming the provider. Malformed tool-call arguments are judged by the caller.
 */
export function toFinish(reason: FinishReason, message: AssistantMessage, provider: string): Finish {
  const hasToolCalls = message.content.some((block) => block.type === "toolCall");
  switch (reason) {
    case "tool-calls":
      return { stopReason: "toolUse" };
    case "length":
      return { stopReason: "length" };
    case "content-filter":
      return { stopReason: "error", errorMessage: `${provider} stopped the response with its content filter.` };
    case "error":
      return { stopReason: "error", errorMessage: `${provider} ended the response with an error it did not describe.` };
    default:
      return { stopReason: hasToolCalls ? "toolUse" : "stop" };
  }
}

/**
 * The error that ends a message whose tool calls cannot be trusted, or undefined.
 * Contract: a call whose arguments were not a JSON object (the builder gave it `{}`) or received
 * text after they were complete makes the whole message an error, so the loop executes none of its
 * calls: running a call with arguments the model did not send is worse than stopping. The calls stay
 * in the message; the next request answers them with an error result that says why.
 */
export function malformedArguments(
  problems: readonly string[],
  finishReason: FinishReason | undefined,
): string | undefined {
  if (problems.length === 0) return undefined;
  const cause =
    finishReason === "length"
      ? " The response hit the output token limit while streaming them; raise maxOutputTokens."
      : "";
  return `The model sent malformed tool-call arguments, so no tool call of this message was executed. ${problems.join(" ")}${cause}`;
}
