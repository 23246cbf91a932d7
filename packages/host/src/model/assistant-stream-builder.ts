import type {
  AssistantMessage,
  AssistantMessageEvent,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "@gatehouse/sdk";
import { GatehouseError } from "../common/errors.ts";
import { keepShape } from "../common/keep-shape.ts";
import { PartialJsonParser } from "./partial-json.ts";
import type { ModelStreamEvent } from "./types.ts";

/** The `start` step of a model stream. */
export type StartEvent = Extract<ModelStreamEvent, { type: "start" }>;
/** A `delta` step of a model stream. */
export type DeltaEvent = Extract<ModelStreamEvent, { type: "delta" }>;
/** The `end` step of a model stream. */
export type EndEvent = Extract<ModelStreamEvent, { type: "end" }>;

/** A tool call whose streamed arguments were not a JSON object when it ended; it got `{}`. */
export interface ToolArgumentsError {
  contentIndex: number;
  toolCallId: string;
  toolName: string;
  message: string;
}

/** A tool call whose streamed arguments went over `maxArgumentBytes`; its text was not kept. */
export interface OversizedArguments {
  contentIndex: number;
  toolCallId: string;
  toolName: string;
  /** UTF-8 bytes of argument text streamed for the call (counted to the end, though not kept). */
  bytes: number;
}

/** Options of an AssistantStreamBuilder. */
export interface AssistantStreamBuilderOptions {
  /** The clock for the message timestamp; default `Date.now`. */
  now?: () => number;
  /**
   * Argument text beyond this many UTF-8 bytes is not kept or parsed: the call ends with `{}` and
   * is listed in `oversizedArguments` (the loop refuses such calls). Default: no limit.
   */
  maxArgumentBytes?: number | undefined;
}

/** What `finish` may add to the message besides its stopReason. */
export interface FinishDetails {
  errorMessage?: string;
  usage?: Usage;
}

/**
 * What every open block holds, whatever its kind; the argument fields are used by tool calls only.
 * Why every kind has them all: one layout (one hidden class) for every open block, so the code that
 * reads `open.kind` never meets a layout it was not optimised for (a message's text block comes
 * after its tool calls, and used to throw that code away in every run).
 */
interface OpenFields {
  index: number;
  raw: string;
  bytes: number;
  /** Past `maxArgumentBytes`: the text is counted, neither kept nor parsed. */
  oversized: boolean;
  /** The incremental parse, from the first chunk that was not a whole object on its own. */
  parser: PartialJsonParser | undefined;
  /** The first chunk was a whole JSON object: its value, and how long it was. */
  whole: { value: Record<string, unknown>; length: number } | undefined;
}

type Open =
  | (OpenFields & { kind: "text"; block: TextContent })
  | (OpenFields & { kind: "thinking"; block: ThinkingContent })
  | (OpenFields & { kind: "toolCall"; block: ToolCall });

/** A new open block of `kind`; every kind is built here, so all have one layout (see `OpenFields`). */
function opened<O extends Open>(kind: O["kind"], block: O["block"]): O {
  return { kind, index: 0, block, raw: "", bytes: 0, oversized: false, parser: undefined, whole: undefined } as O;
}

/**
 * Owns one partial AssistantMessage and turns provider-neutral steps into ModelStreamEvents.
 * Contract: `message` is created once and mutated in place; every event carries that same object and
 * `finish` returns it as the final message. One block is open at a time; a step out of order (a delta
 * with no open block of its kind, a start while a block is open, anything after `finish`) is a
 * programmer error and throws `GH_INTERNAL`. Blocks still open at `finish` are kept as streamed so far.
 */
export class AssistantStreamBuilder {
  /** The message being built; partial until `finish`. */
  readonly message: AssistantMessage;
  /** Tool calls whose final arguments were not a JSON object; the caller decides what that means. */
  readonly argumentErrors: ToolArgumentsError[] = [];
  /** Tool calls whose argument text went over `maxArgumentBytes`. */
  readonly oversizedArguments: OversizedArguments[] = [];
  private open: Open | undefined;
  private finished = false;
  private readonly maxArgumentBytes: number;

  constructor(options: AssistantStreamBuilderOptions = {}) {
    this.message = { role: "assistant", content: [], stopReason: "stop", timestamp: (options.now ?? Date.now)() };
    this.maxArgumentBytes = options.maxArgumentBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The first step of every stream. */
  start(): StartEvent {
    this.assertLive();
    return { type: "start", partial: this.message };
  }

  /** Opens a text block. */
  textStart(): DeltaEvent {
    const index = this.begin(opened("text", { type: "text", text: "" }));
    return this.delta({ type: "text_start", contentIndex: index });
  }

  /** Appends to the open text block. */
  textDelta(delta: string): DeltaEvent {
    const open = this.expect("text");
    open.block.text += delta;
    return this.delta({ type: "text_delta", contentIndex: open.index, delta });
  }

  /** Closes the open text block. */
  textEnd(): DeltaEvent {
    const open = this.close("text");
    return this.delta({ type: "text_end", contentIndex: open.index, content: open.block.text });
  }

  /** Opens a thinking block. */
  thinkingStart(): DeltaEvent {
    const index = this.begin(opened("thinking", { type: "thinking", thinking: "" }));
    return this.delta({ type: "thinking_start", contentIndex: index });
  }

  /** Appends to the open thinking block. */
  thinkingDelta(delta: string): DeltaEvent {
    const open = this.expect("thinking");
    open.block.thinking += delta;
    return this.delta({ type: "thinking_delta", contentIndex: open.index, delta });
  }

  /** Closes the open thinking block. */
  thinkingEnd(): DeltaEvent {
    const open = this.close("thinking");
    return this.delta({ type: "thinking_end", contentIndex: open.index, content: open.block.thinking });
  }

  /** Opens a tool-call block with empty arguments. */
  toolCallStart(id: string, name: string): DeltaEvent {
    const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
    const index = this.begin(opened("toolCall", block));
    return this.delta({ type: "toolcall_start", contentIndex: index, id, name });
  }

  /**
   * Appends a chunk of the raw argument JSON.
   * Contract: `arguments` is the best-effort partial parse of all the text so far, always an object,
   * never the raw text; each chunk is parsed once (incrementally), so a call costs time linear in its
   * size. Past `maxArgumentBytes` the text is counted but neither kept nor parsed, and `arguments`
   * is `{}`.
   */
  toolCallDelta(chunk: string): DeltaEvent {
    const open = this.expect("toolCall");
    open.bytes += Buffer.byteLength(chunk, "utf8");
    if (!open.oversized && open.bytes > this.maxArgumentBytes) {
      open.oversized = true;
      open.raw = "";
      open.parser = undefined;
      open.whole = undefined;
      open.block.arguments = {};
    }
    if (open.oversized) return this.delta({ type: "toolcall_delta", contentIndex: open.index, delta: chunk });
    const first = open.raw === "" && open.parser === undefined;
    open.raw += chunk;
    // A document already whole ignores what follows, as the parser would (the end reports it).
    if (open.whole !== undefined) return this.delta({ type: "toolcall_delta", contentIndex: open.index, delta: chunk });
    // Most calls' arguments arrive whole in their first chunk: one JSON.parse, no parser.
    const whole = first ? wholeObject(chunk) : undefined;
    if (whole !== undefined) {
      open.whole = { value: whole, length: chunk.length };
      open.block.arguments = whole;
    } else {
      open.parser ??= new PartialJsonParser();
      open.block.arguments = asObject(open.parser.push(chunk).value) ?? {};
    }
    return this.delta({ type: "toolcall_delta", contentIndex: open.index, delta: chunk });
  }

  /**
   * Whether a tool call is open and its arguments so far already form a whole JSON object.
   * Contract: known from the incremental parse, so asking costs nothing; false past `maxArgumentBytes`.
   */
  get openToolCallComplete(): boolean {
    const open = this.open;
    if (open?.kind !== "toolCall" || open.oversized) return false;
    return open.whole !== undefined || open.parser?.completeObject === true;
  }

  /**
   * Closes the open tool call with `JSON.parse` of the accumulated text (empty text means `{}`).
   * Contract: text that is not a JSON object gives `{}` and a record in `argumentErrors`; text over
   * `maxArgumentBytes` gives `{}` and a record in `oversizedArguments`.
   */
  toolCallEnd(): DeltaEvent {
    const open = this.close("toolCall");
    const { block, raw, index } = open;
    if (open.oversized) {
      const { id: toolCallId, name: toolName } = block;
      this.oversizedArguments.push({ contentIndex: index, toolCallId, toolName, bytes: open.bytes });
      block.arguments = {};
      return this.delta({ type: "toolcall_end", contentIndex: index, toolCall: block });
    }
    let parsed: Record<string, unknown> | undefined;
    let problem = "it is not a JSON object";
    try {
      if (open.whole !== undefined && open.whole.length === raw.length) parsed = open.whole.value;
      else parsed = raw.trim() === "" ? {} : asObject(JSON.parse(raw));
    } catch (error) {
      problem = `it is not valid JSON (${(error as Error).message})`;
    }
    if (parsed === undefined) {
      const message = `The arguments of tool call ${block.id} (${block.name}) were dropped: ${problem}.`;
      this.argumentErrors.push({ contentIndex: index, toolCallId: block.id, toolName: block.name, message });
    }
    block.arguments = parsed ?? {};
    return this.delta({ type: "toolcall_end", contentIndex: index, toolCall: block });
  }

  /**
   * Finalizes the message; the last step of every stream.
   * Contract: sets stopReason and the given details; the returned message is `this.message`.
   */
  finish(stopReason: StopReason, details: FinishDetails = {}): EndEvent {
    this.assertLive();
    this.finished = true;
    this.open = undefined;
    this.message.stopReason = stopReason;
    if (details.errorMessage !== undefined) this.message.errorMessage = details.errorMessage;
    if (details.usage !== undefined) this.message.usage = details.usage;
    return { type: "end", message: this.message };
  }

  private begin(open: Open): number {
    this.assertLive();
    if (this.open) throw misuse(`cannot start a ${open.kind} block while a ${this.open.kind} block is open`);
    open.index = this.message.content.push(open.block) - 1;
    this.open = open;
    return open.index;
  }

  private expect<K extends Open["kind"]>(kind: K): Extract<Open, { kind: K }> {
    this.assertLive();
    const open = this.open;
    if (open?.kind !== kind) throw misuse(`no ${kind} block is open`);
    return open as Extract<Open, { kind: K }>;
  }

  private close<K extends Open["kind"]>(kind: K): Extract<Open, { kind: K }> {
    const open = this.expect(kind);
    this.open = undefined;
    return open;
  }

  private delta(event: AssistantMessageEvent): DeltaEvent {
    return { type: "delta", event, partial: this.message };
  }

  private assertLive(): void {
    if (this.finished) throw misuse("the message is already finished");
  }
}

/**
 * The object a chunk holds when it is a whole JSON object by itself (`{` … `}`), else undefined.
 * Contract: linear in the chunk, never throws; called once per call, on its first chunk only.
 */
function wholeObject(chunk: string): Record<string, unknown> | undefined {
  if (chunk.charCodeAt(0) !== 0x7b || chunk.charCodeAt(chunk.length - 1) !== 0x7d) return undefined;
  try {
    return asObject(JSON.parse(chunk));
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function misuse(what: string): GatehouseError {
  return new GatehouseError("GH_INTERNAL", `AssistantStreamBuilder: ${what}.`);
}

// One builder per streamed message: its layout (and the code built on it) outlives each run.
keepShape(new AssistantStreamBuilder({ maxArgumentBytes: 1024 }));
// And one open block, its fields holding what real ones hold.
keepShape(
  Object.assign(opened("toolCall", { type: "toolCall", id: "", name: "", arguments: {} }), {
    parser: new PartialJsonParser(),
    whole: { value: {}, length: 2 },
  }),
);
