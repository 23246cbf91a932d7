import type { AgentEvent, AssistantMessage, ToolCall } from "@gatehouse/sdk";
import { deepFreeze } from "../common/deep-freeze.ts";
import { errorMessage } from "../common/errors.ts";
import type { ModelRequest } from "../model/types.ts";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "./argument-size.ts";
import { emitEvent, emitEvents } from "./emit-events.ts";
import type { LoopConfig, TurnState } from "./types.ts";
import { type MessageUpdate, UpdateCoalescer } from "./update-coalescer.ts";

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
  const { messages } = config;
  const tools = turn.tools.list;
  const systemPrompt = turn.systemPrompt ?? config.systemPrompt;
  // Built whole, not extended: a request gaining `systemPrompt` later takes a layout V8 forgets
  // between runs, and the optimised turn deoptimised on it.
  const request: ModelRequest =
    systemPrompt === undefined
      ? { messages, tools, maxArgumentBytes: limit }
      : { messages, tools, maxArgumentBytes: limit, systemPrompt };
  const coalescer = new UpdateCoalescer(now);
  const argumentBytes = new Map<number, number>();
  // One array for every step's updates: emitted (and awaited, if need be) before the next step.
  const updates: AgentEvent[] = [];
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
        const emitted = emitEvent(config, { type: "message_start", message: step.partial });
        if (emitted) await emitted;
      }
      if (step.type === "start") continue;
      const event = step.event;
      if (event.type === "toolcall_delta") {
        const bytes = (argumentBytes.get(event.contentIndex) ?? 0) + Buffer.byteLength(event.delta, "utf8");
        argumentBytes.set(event.contentIndex, bytes);
        if (bytes > limit) continue;
      }
      coalescer.stepInto(step.partial, event, updates as MessageUpdate[]);
      const emitted = emitEvents(config, updates);
      if (emitted) await emitted;
      updates.length = 0;
    }
    final ??= failed("The model ended its stream without a message.", signal.aborted, now());
  } catch (error) {
    final = failed(`Model request failed: ${errorMessage(error)}`, signal.aborted, now());
  }
  return endMessage({ config, coalescer, started, final, argumentBytes });
}

/**
 * The held update, the start if nothing streamed, and the end. Kept out of `streamAssistant`: code
 * that runs once after its long loop would be compiled without type feedback and throw the
 * optimised loop away at the end of every message.
 */
async function endMessage(options: {
  config: LoopConfig;
  coalescer: UpdateCoalescer;
  started: boolean;
  final: AssistantMessage;
  argumentBytes: ReadonlyMap<number, number>;
}): Promise<StreamedAssistant> {
  const { config, final } = options;
  // Final from here on: an observer of message_end (or any later event) that changed it in place
  // would change what the next request sends but not what the session recorded (SPEC §4.3).
  deepFreeze(final);
  const ending: AgentEvent[] = options.coalescer.flush();
  if (!options.started) ending.push({ type: "message_start", message: final });
  ending.push({ type: "message_end", message: final });
  const emitted = emitEvents(config, ending);
  if (emitted) await emitted;
  return { message: final, argumentBytes: sizesOf(final, options.argumentBytes) };
}
