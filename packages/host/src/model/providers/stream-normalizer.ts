import type { TextStreamPart, ToolSet } from "ai";
import type { AssistantStreamBuilder, DeltaEvent } from "../assistant-stream-builder.ts";

/** The SDK stream parts this class turns into content. */
export type StreamPart = TextStreamPart<ToolSet>;

type Kind = "text" | "thinking" | "toolCall";
type Step = { op: "start" } | { op: "delta"; text: string } | { op: "end" };

/** A block the SDK opened while a tool call was streaming; replayed when that call ends. */
interface Pending {
  kind: Kind;
  id: string;
  steps: Step[];
}

interface Open {
  key: string;
  kind: Kind;
}

/**
 * Turns the AI SDK's fullStream content parts into AssistantStreamBuilder steps.
 * Contract: providers may interleave blocks (Chat Completions keeps text open until the stream ends
 * while tool calls stream, and may open a second call before the first one ends), but the builder
 * holds one open block. So: a new block closes an open text or thinking block (its later deltas
 * start a new block of the same kind); a new tool call closes an open one whose arguments already
 * form a complete JSON object, and otherwise waits (buffered, in arrival order) until the open call
 * ends. A delta for a call closed that way is recorded in `problems`, never dropped silently.
 * `tool-call` parts only add calls that never streamed their input; streamed argument text is what
 * the builder parses. Empty deltas are ignored, so a block never opens with nothing in it.
 */
export class StreamNormalizer {
  /** Things the stream did that make its tool calls untrustworthy; each is a sentence. */
  readonly problems: string[] = [];
  private open: Open | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly closed = new Set<string>();
  private readonly names = new Map<string, string>();

  constructor(private readonly builder: AssistantStreamBuilder) {}

  /** Whether anything has been streamed (or is buffered): after that, a request is never retried. */
  get hasContent(): boolean {
    return this.builder.message.content.length > 0 || this.pending.size > 0;
  }

  /** The builder steps for one SDK part; parts that carry no content give none. */
  push(part: StreamPart): DeltaEvent[] {
    switch (part.type) {
      case "text-delta":
        return this.step("text", part.id, { op: "delta", text: part.text });
      case "text-end":
        return this.step("text", part.id, { op: "end" });
      case "reasoning-delta":
        return this.step("thinking", part.id, { op: "delta", text: part.text });
      case "reasoning-end":
        return this.step("thinking", part.id, { op: "end" });
      case "tool-input-start":
        if (part.providerExecuted) return [];
        this.names.set(part.id, part.toolName);
        return this.step("toolCall", part.id, { op: "start" });
      case "tool-input-delta":
        return this.step("toolCall", part.id, { op: "delta", text: part.delta });
      case "tool-input-end":
        return this.step("toolCall", part.id, { op: "end" });
      case "tool-call":
        return this.wholeToolCall(part);
      default:
        return [];
    }
  }

  /** Closes whatever is open and replays everything buffered; call once, when the stream is over. */
  close(): DeltaEvent[] {
    const events: DeltaEvent[] = [];
    while (this.open !== undefined || this.pending.size > 0) {
      events.push(...(this.open === undefined ? this.drainOne(true) : this.closeOpen()));
    }
    return events;
  }

  private wholeToolCall(part: Extract<StreamPart, { type: "tool-call" }>): DeltaEvent[] {
    if (part.providerExecuted || this.names.has(part.toolCallId)) return [];
    const input = typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {});
    this.names.set(part.toolCallId, part.toolName);
    return [
      ...this.step("toolCall", part.toolCallId, { op: "start" }),
      ...this.step("toolCall", part.toolCallId, { op: "delta", text: input }),
      ...this.step("toolCall", part.toolCallId, { op: "end" }),
    ];
  }

  private step(kind: Kind, id: string, step: Step): DeltaEvent[] {
    const key = keyOf(kind, id);
    if (step.op === "delta" && step.text === "") return [];
    if (this.open?.key === key) return this.apply(step);
    const pending = this.pending.get(key);
    if (pending) {
      pending.steps.push(step);
      return [];
    }
    if (step.op === "end") return [];
    if (kind === "toolCall" && this.closed.has(key)) {
      if (step.op === "delta") this.problems.push(lateDelta(id, this.names.get(id)));
      return [];
    }
    // Only a start opens a call: input of a call we never saw start (a provider-executed tool) is not ours.
    if (kind === "toolCall" && step.op !== "start") return [];
    if (this.open?.kind === "toolCall") {
      // The builder's incremental parse says whether the call is whole: no re-parse of its text here.
      if (kind !== "toolCall" || !this.builder.openToolCallComplete) {
        this.pending.set(key, { kind, id, steps: [step] });
        return [];
      }
      // Closing the call may replay older buffered blocks, so decide again afterwards.
      return [...this.closeOpen(), ...this.step(kind, id, step)];
    }
    const events = this.closeOpen();
    events.push(...this.begin(kind, id));
    if (step.op === "delta") events.push(...this.apply(step));
    return events;
  }

  private begin(kind: Kind, id: string): DeltaEvent[] {
    const key = keyOf(kind, id);
    this.closed.delete(key);
    this.open = { key, kind };
    if (kind === "text") return [this.builder.textStart()];
    if (kind === "thinking") return [this.builder.thinkingStart()];
    return [this.builder.toolCallStart(id, this.names.get(id) ?? "")];
  }

  private apply(step: Step): DeltaEvent[] {
    const open = this.open;
    if (open === undefined || step.op === "start") return [];
    if (step.op === "end") return this.closeOpen();
    if (open.kind === "text") return [this.builder.textDelta(step.text)];
    if (open.kind === "thinking") return [this.builder.thinkingDelta(step.text)];
    return [this.builder.toolCallDelta(step.text)];
  }

  /** Closes the open block, then replays buffered blocks until one stays open. */
  private closeOpen(): DeltaEvent[] {
    const open = this.open;
    if (open === undefined) return [];
    this.open = undefined;
    this.closed.add(open.key);
    const end =
      open.kind === "text"
        ? this.builder.textEnd()
        : open.kind === "thinking"
          ? this.builder.thinkingEnd()
          : this.builder.toolCallEnd();
    const events = [end];
    if (open.kind === "toolCall") {
      while (this.pending.size > 0 && this.open === undefined) events.push(...this.drainOne(false));
    }
    return events;
  }

  /** Opens the oldest buffered block and replays its steps; with `force`, closes it too. */
  private drainOne(force: boolean): DeltaEvent[] {
    const [key, pending] = this.pending.entries().next().value as [string, Pending];
    this.pending.delete(key);
    const events = this.begin(pending.kind, pending.id);
    let ended = false;
    for (const step of pending.steps) {
      if (step.op === "end") ended = true;
      else if (step.op === "delta") events.push(...this.apply(step));
    }
    if ((ended || force) && this.open?.key === key) events.push(...this.closeOpen());
    return events;
  }
}

function keyOf(kind: Kind, id: string): string {
  return `${kind}:${id}`;
}

function lateDelta(id: string, name: string | undefined): string {
  return `Tool call ${id} (${name ?? "unknown tool"}) received more argument text after its arguments were complete.`;
}
