import type { Message, StopReason } from "@gatehouse/sdk";
import { abortableSleep } from "../common/abortable-sleep.ts";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { AssistantStreamBuilder, type FinishDetails } from "./assistant-stream-builder.ts";
import type { Script, ScriptBlock, ScriptTurn } from "./script-schema.ts";
import type { Model, ModelRequest, ModelStreamEvent } from "./types.ts";

/** What the scripted model remembers of one request: enough for tests, never the whole context. */
export interface ScriptedRequest {
  messageCount: number;
  toolNames: string[];
  /** The last message of the request's context (the same object, not a copy). */
  lastMessage: Message | undefined;
}

/** Options of the scripted model. */
export interface ScriptedModelOptions {
  /** The clock for message timestamps; default `Date.now`. */
  now?: () => number;
  /** How many characters each text/thinking/argument delta carries; default 16. */
  chunkSize?: number;
}

/** The offline model behind `gatehouse run --script`. */
export interface ScriptedModel extends Model {
  /** One record per `stream` call, in order. */
  readonly requests: readonly ScriptedRequest[];
}

const ABORTED = "Request aborted";
const EMPTY_TURN: ScriptTurn = { content: [], stopReason: "stop" };

/**
 * Creates a model that answers each request with the next turn of `script`, streamed as deltas.
 * Contract: `stream` never throws; abort (during `delayMs` or while streaming) ends with stopReason
 * `aborted` and errorMessage "Request aborted", keeping what was streamed; an exhausted script answers
 * `stop` with empty content. Throws `GH_USAGE` only for a chunkSize that is not a positive integer.
 */
export function createScriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  const chunkSize = options.chunkSize ?? 16;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new GatehouseError("GH_USAGE", `chunkSize must be a positive integer, got ${chunkSize}`);
  }
  const now = options.now ?? Date.now;
  const requests: ScriptedRequest[] = [];
  let next = 0;
  return {
    id: "scripted",
    requests,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      requests.push({
        messageCount: request.messages.length,
        toolNames: request.tools.map((tool) => tool.name),
        lastMessage: request.messages[request.messages.length - 1],
      });
      const turn = script.turns[next++] ?? EMPTY_TURN;
      return streamTurn({ turn, signal, now, chunkSize, maxArgumentBytes: request.maxArgumentBytes });
    },
  };
}

async function* streamTurn(ctx: {
  turn: ScriptTurn;
  signal: AbortSignal;
  now: () => number;
  chunkSize: number;
  maxArgumentBytes: number | undefined;
}): AsyncGenerator<ModelStreamEvent> {
  const { turn, signal, chunkSize } = ctx;
  if (turn.delayMs) await abortableSleep(turn.delayMs, signal);
  const builder = new AssistantStreamBuilder({ now: ctx.now, maxArgumentBytes: ctx.maxArgumentBytes });
  try {
    yield builder.start();
    for (const block of turn.content) {
      for (const step of blockSteps(builder, block, chunkSize)) {
        if (signal.aborted) break;
        yield step();
      }
      if (signal.aborted) break;
    }
  } catch (error) {
    yield builder.finish("error", { errorMessage: `Scripted model failed: ${errorMessage(error)}` });
    return;
  }
  if (signal.aborted) {
    yield builder.finish("aborted", { errorMessage: ABORTED });
    return;
  }
  const hasToolCalls = turn.content.some((block) => block.type === "toolCall");
  const stopReason: StopReason = turn.stopReason ?? (hasToolCalls ? "toolUse" : "stop");
  const details: FinishDetails = {};
  if (turn.errorMessage !== undefined) details.errorMessage = turn.errorMessage;
  if (turn.usage !== undefined) details.usage = { ...turn.usage };
  yield builder.finish(stopReason, details);
}

/** The builder steps of one block, deferred so an abort between two of them is noticed. */
function* blockSteps(builder: AssistantStreamBuilder, block: ScriptBlock, size: number) {
  if (block.type === "text") {
    yield () => builder.textStart();
    for (const piece of chunks(block.text, size)) yield () => builder.textDelta(piece);
    yield () => builder.textEnd();
  } else if (block.type === "thinking") {
    yield () => builder.thinkingStart();
    for (const piece of chunks(block.thinking, size)) yield () => builder.thinkingDelta(piece);
    yield () => builder.thinkingEnd();
  } else {
    yield () => builder.toolCallStart(block.id, block.name);
    for (const piece of chunks(JSON.stringify(block.arguments), size)) yield () => builder.toolCallDelta(piece);
    yield () => builder.toolCallEnd();
  }
}

/** Splits text into pieces of `size` UTF-16 units, never between the halves of a surrogate pair. */
function* chunks(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(start, end);
    start = end;
  }
}
