import type { AgentEvent, AssistantMessage, ToolCall } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { isPromiseLike } from "../common/is-promise.ts";
import type { ModelRequest } from "../model/types.ts";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "./argument-size.ts";
import type { LoopConfig, TurnState } from "./types.ts";
import { UpdateCoalescer } from "./update-coalescer.ts";

/** One finalized assistant message and what streaming it revealed about its tool calls. */
export interface StreamedAssistant {
  message: AssistantMessage;
  /** UTF-8 bytes of argument text streamed for each tool call (only calls that streamed any). */
  argumentBytes: ReadonlyMap<ToolCall, number>;
}

function failed(message: string, aborted: boolean, now: number): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: aborted ? "aborted" : "error",
    errorMessage: message,
    timestamp: now,
  };
}

async function emitAll(config: LoopConfig, events: readonly AgentEvent[]): Promise<void> {
  for (const event of events) {
    const r = config.emit(event);
    if (isPromiseLike(r)) await r;
  }
}

/** The streamed sizes, keyed by the final message's tool-call blocks. */
function sizesOf(message: AssistantMessage, byIndex: ReadonlyMap<number, number>): Map<ToolCall, number> {
  const sizes = new Map<ToolCall, number>();
  for (const [index, bytes] of byIndex) {
    const block = message.content[index];
    if (block?.type === "toolCall") sizes.set(block, bytes);
  }
  return sizes;
}

/**
 * Requests one assistant message and relays its stream as message_start/update/end.
 * Contract: never throws; a model that throws or ends without a message yields an assistant
 * message with stopReason `error` (or `aborted` when the signal fired). Updates are coalesced
 * (`UpdateCoalescer`) so their total size stays proportional to the message, and a tool call's
 * argument deltas stop being relayed once they pass `maxArgumentBytes` (the call is refused later).
 */
export async function streamAssistant(
  config: LoopConfig,
  turn: TurnState,
  signal: AbortSignal,
): Promise<StreamedAssistant> {
  const now = config.now ?? Date.now;
  const limit = config.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
  const request: ModelRequest = { messages: config.messages, tools: turn.tools.list, maxArgumentBytes: limit };
  const systemPrompt = turn.systemPrompt ?? config.systemPrompt;
  if (systemPrompt !== undefined) request.systemPrompt = systemPrompt;
  const coalescer = new UpdateCoalescer(now);
  const argumentBytes = new Map<number, number>();
  let started = false;
  let final: AssistantMessage | undefined;
  try {
    for await (const step of config.model.stream(request, signal)) {
      if (step.type === "end") {
        final = step.message;
        break;
      }
      if (!started) {
        started = true;
        await emitAll(config, [{ type: "message_start", message: step.partial }]);
      }
      if (step.type === "start") continue;
      const event = step.event;
      if (event.type === "toolcall_delta") {
        const bytes = (argumentBytes.get(event.contentIndex) ?? 0) + Buffer.byteLength(event.delta, "utf8");
        argumentBytes.set(event.contentIndex, bytes);
        if (bytes > limit) continue;
      }
      await emitAll(config, coalescer.step(step.partial, event));
    }
    final ??= failed("The model ended its stream without a message.", signal.aborted, now());
  } catch (error) {
    final = failed(`Model request failed: ${errorMessage(error)}`, signal.aborted, now());
  }
  const ending: AgentEvent[] = coalescer.flush();
  if (!started) ending.push({ type: "message_start", message: final });
  ending.push({ type: "message_end", message: final });
  await emitAll(config, ending);
  return { message: final, argumentBytes: sizesOf(final, argumentBytes) };
}
