import type { StopReason } from "@gatehouse/sdk";
import { type AbortFlag, abortFlag } from "../common/abort-flag.ts";
import { abortableSleep } from "../common/abortable-sleep.ts";
import { errorMessage } from "../common/errors.ts";
import { keepShape } from "../common/keep-shape.ts";
import { AssistantStreamBuilder, type FinishDetails } from "./assistant-stream-builder.ts";
import type { ScriptBlock, ScriptTurn } from "./script-schema.ts";
import type { ModelStreamEvent } from "./types.ts";

const ABORTED = "Request aborted";

/** Options of one scripted answer. */
export interface ScriptedStreamOptions {
  turn: ScriptTurn;
  signal: AbortSignal;
  now: () => number;
  chunkSize: number;
  maxArgumentBytes: number | undefined;
}

/** Where the stream is in the turn: before the start, inside block `block` (phase, offset), or done. */
type Cursor =
  | { at: "begin" }
  | { at: "block"; block: number; phase: "open" | "delta" | "close"; offset: number; text: string }
  | { at: "finish" }
  | { at: "done" };

/** The text a block streams in deltas: its text, its thinking, or its arguments as JSON. */
function streamedText(block: ScriptBlock): string {
  if (block.type === "text") return block.text;
  if (block.type === "thinking") return block.thinking;
  return JSON.stringify(block.arguments);
}

/** The end of the next chunk from `start`: `size` UTF-16 units, never between the halves of a surrogate pair. */
function chunkEnd(text: string, start: number, size: number): number {
  const end = Math.min(start + size, text.length);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end + 1 : end;
}

/**
 * One scripted answer, streamed step by step like a provider: start, then per block its start,
 * its text in `chunkSize` deltas and its end, then the end of the message.
 * Why a hand-written iterator (not an async generator): each step is computed synchronously, so
 * one resolved promise per step is all the asynchrony a step needs; a generator adds several
 * microtasks per step, which a 1000-call message pays 3000 times.
 * Contract: abort is checked before every step; an aborted stream (during `delayMs` too) ends
 * with stopReason `aborted` keeping what was streamed. A builder error ends it with `error`.
 */
export class ScriptedStream implements AsyncIterableIterator<ModelStreamEvent> {
  readonly #options: ScriptedStreamOptions;
  readonly #builder: AssistantStreamBuilder;
  /** Read at every step: a flag of one shape, not the signal itself (see abortFlag). */
  readonly #abort: AbortFlag;
  #cursor: Cursor = { at: "begin" };

  constructor(options: ScriptedStreamOptions) {
    this.#options = options;
    this.#abort = abortFlag(options.signal);
    this.#builder = new AssistantStreamBuilder({ now: options.now, maxArgumentBytes: options.maxArgumentBytes });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ModelStreamEvent>> {
    const { delayMs } = this.#options.turn;
    if (this.#cursor.at === "begin" && delayMs) {
      return abortableSleep(delayMs, this.#options.signal).then(() => this.#result());
    }
    return Promise.resolve(this.#result());
  }

  /** Stops early (a consumer that breaks out of `for await`): nothing more is streamed. */
  return(): Promise<IteratorResult<ModelStreamEvent>> {
    this.#cursor = { at: "done" };
    return Promise.resolve({ value: undefined, done: true });
  }

  #result(): IteratorResult<ModelStreamEvent> {
    const value = this.#step();
    return value === undefined ? { value: undefined, done: true } : { value, done: false };
  }

  #step(): ModelStreamEvent | undefined {
    const cursor = this.#cursor;
    if (cursor.at === "done") return undefined;
    const builder = this.#builder;
    if (cursor.at === "finish" || (cursor.at !== "begin" && this.#abort.aborted)) {
      this.#cursor = { at: "done" };
      return this.#finish();
    }
    try {
      if (cursor.at === "begin") {
        this.#cursor = this.#enter(0);
        return builder.start();
      }
      const block = this.#options.turn.content[cursor.block] as ScriptBlock;
      if (cursor.phase === "open") {
        cursor.phase = cursor.text.length > 0 ? "delta" : "close";
        return this.#open(block);
      }
      if (cursor.phase === "delta") {
        const end = chunkEnd(cursor.text, cursor.offset, this.#options.chunkSize);
        const piece = cursor.text.slice(cursor.offset, end);
        cursor.offset = end;
        if (end >= cursor.text.length) cursor.phase = "close";
        return this.#delta(block, piece);
      }
      this.#cursor = this.#enter(cursor.block + 1);
      return this.#close(block);
    } catch (error) {
      this.#cursor = { at: "done" };
      return builder.finish("error", { errorMessage: `Scripted model failed: ${errorMessage(error)}` });
    }
  }

  #enter(index: number): Cursor {
    const block = this.#options.turn.content[index];
    if (block === undefined) return { at: "finish" };
    return { at: "block", block: index, phase: "open", offset: 0, text: streamedText(block) };
  }

  #open(block: ScriptBlock): ModelStreamEvent {
    if (block.type === "text") return this.#builder.textStart();
    if (block.type === "thinking") return this.#builder.thinkingStart();
    return this.#builder.toolCallStart(block.id, block.name);
  }

  #delta(block: ScriptBlock, piece: string): ModelStreamEvent {
    if (block.type === "text") return this.#builder.textDelta(piece);
    if (block.type === "thinking") return this.#builder.thinkingDelta(piece);
    return this.#builder.toolCallDelta(piece);
  }

  #close(block: ScriptBlock): ModelStreamEvent {
    if (block.type === "text") return this.#builder.textEnd();
    if (block.type === "thinking") return this.#builder.thinkingEnd();
    return this.#builder.toolCallEnd();
  }

  #finish(): ModelStreamEvent {
    const { turn } = this.#options;
    if (this.#abort.aborted) return this.#builder.finish("aborted", { errorMessage: ABORTED });
    const hasToolCalls = turn.content.some((block) => block.type === "toolCall");
    const stopReason: StopReason = turn.stopReason ?? (hasToolCalls ? "toolUse" : "stop");
    const details: FinishDetails = {};
    if (turn.errorMessage !== undefined) details.errorMessage = turn.errorMessage;
    if (turn.usage !== undefined) details.usage = { ...turn.usage };
    return this.#builder.finish(stopReason, details);
  }
}

// One stream per scripted answer: its layout (and the code built on it) outlives each run.
keepShape(
  new ScriptedStream({
    turn: { content: [] },
    signal: new AbortController().signal,
    now: Date.now,
    chunkSize: 16,
    maxArgumentBytes: undefined,
  }),
);
