import type { AssistantMessage } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import type { ModelRequest } from "../model/types.ts";
import type { LoopConfig, TurnState } from "./types.ts";

function failed(message: string, aborted: boolean, now: number): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: aborted ? "aborted" : "error",
    errorMessage: message,
    timestamp: now,
  };
}

/**
 * Requests one assistant message and relays its stream as message_start/update/end.
 * Contract: never throws; a model that throws or ends without a message yields an assistant
 * message with stopReason `error` (or `aborted` when the signal fired).
 */
export async function streamAssistant(
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Promise<AssistantMessage> {
  const now = config.now ?? Date.now;
  const request: ModelRequest = { messages: config.messages, tools: turn.tools.list };
  const systemPrompt = turn.systemPrompt ?? config.systemPrompt;
  if (systemPrompt !== undefined) request.systemPrompt = systemPrompt;
  let started = false;
  let final: AssistantMessage | undefined;
  try {
    for await (const step of config.model.stream(request, signal)) {
      if (step.type === "end") {
        final = step.message;
        break;
      }
      if (step.type === "start") {
        if (started) continue;
        started = true;
        const r = config.emit({ type: "message_start", message: step.partial });
        if (isPromiseLike(r)) await r;
        continue;
      }
      if (!started) {
        started = true;
        const r = config.emit({ type: "message_start", message: step.partial });
        if (isPromiseLike(r)) await r;
      }
      const r = config.emit({ type: "message_update", message: step.partial, assistantMessageEvent: step.event });
      if (isPromiseLike(r)) await r;
    }
    final ??= failed("The model ended its stream without a message.", signal.aborted, now());
  } catch (error) {
    final = failed(`Model request failed: ${errorMessage(error)}`, signal.aborted, now());
  }
  if (!started) {
    const r = config.emit({ type: "message_start", message: final });
    if (isPromiseLike(r)) await r;
  }
  const r = config.emit({ type: "message_end", message: final });
  if (isPromiseLike(r)) await r;
  return final;
}
