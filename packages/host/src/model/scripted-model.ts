import type { Message } from "@gatehouse/sdk";
import { GatehouseError } from "../common/errors.ts";
import type { Script, ScriptTurn } from "./script-schema.ts";
import { ScriptedStream } from "./scripted-stream.ts";
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
      return new ScriptedStream({ turn, signal, now, chunkSize, maxArgumentBytes: request.maxArgumentBytes });
    },
  };
}
