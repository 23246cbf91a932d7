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
  return new Scripted(script, options.now ?? Date.now, chunkSize);
}

/**
 * The scripted model. A class, so `stream` is one function for every model of the process: the
 * loop calls it each turn, and a method made per model would be a new call target each time (see
 * host/run-config.ts).
 */
class Scripted implements ScriptedModel {
  readonly id = "scripted";
  readonly requests: ScriptedRequest[] = [];
  readonly #script: Script;
  readonly #now: () => number;
  readonly #chunkSize: number;
  #next = 0;

  constructor(script: Script, now: () => number, chunkSize: number) {
    this.#script = script;
    this.#now = now;
    this.#chunkSize = chunkSize;
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    this.requests.push({
      messageCount: request.messages.length,
      toolNames: request.tools.map((tool) => tool.name),
      lastMessage: request.messages[request.messages.length - 1],
    });
    const turn = this.#script.turns[this.#next++] ?? EMPTY_TURN;
    const { maxArgumentBytes } = request;
    return new ScriptedStream({ turn, signal, now: this.#now, chunkSize: this.#chunkSize, maxArgumentBytes });
  }
}
