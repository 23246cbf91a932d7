import type { AgentEvent, AssistantMessage, AssistantMessageEvent } from "@gatehouse/sdk";
import { keepShape } from "../common/keep-shape.ts";

/** One `message_update` event. */
export type MessageUpdate = Extract<AgentEvent, { type: "message_update" }>;
type DeltaEvent = Extract<AssistantMessageEvent, { delta: string }>;

/**
 * A held delta is emitted once it is at least 1/4 of what was streamed, so the message grows by a
 * third between updates and all the snapshots together are about 4 times its size.
 */
const GROWTH_SHARE = 4;
/** A held delta is also emitted after this many ms, so a slow model still shows up live... */
const MAX_HOLD_MS = 100;
/** ...as long as those snapshots (characters streamed at each update, summed) stay under this. */
const TIMED_BUDGET = 4 * 1024 * 1024;

function isDelta(event: AssistantMessageEvent): event is DeltaEvent {
  return event.type === "text_delta" || event.type === "thinking_delta" || event.type === "toolcall_delta";
}

/**
 * Turns a model's stream steps into `message_update` events whose total size stays proportional
 * to the message. Every update carries the whole (live) message, so one update per delta of a huge
 * argument would cost the square of its size once serialised.
 * Contract: start and end events pass through in order, each after every delta before it; deltas of
 * one block in a row are merged (their texts concatenated, in order) and held until the held text
 * is at least 1/4 of everything streamed so far, or a non-delta event or `flush` comes, or 100 ms
 * have passed since the last update while the updates so far cost less than 4 MiB. So the first
 * deltas stream one by one, a slow model still shows up live, and the serialised updates of a
 * message of size S total about 4·S + 4 MiB whatever its deltas.
 */
export class UpdateCoalescer {
  readonly #now: () => number;
  /** Characters of every delta so far: the part of the message that grows. */
  #streamed = 0;
  #held: { message: AssistantMessage; event: DeltaEvent } | undefined;
  #heldChars = 0;
  #lastEmit: number;
  /** The size of the message at each update so far, summed: what the updates cost serialised. */
  #snapshots = 0;

  constructor(now: () => number) {
    this.#now = now;
    this.#lastEmit = now();
  }

  /** The updates to emit for one stream step, in order (none while a delta is held). */
  step(message: AssistantMessage, event: AssistantMessageEvent): MessageUpdate[] {
    const out: MessageUpdate[] = [];
    this.stepInto(message, event, out);
    return out;
  }

  /** `step`, appending the updates to `out` (the loop reuses one array: a step per streamed delta). */
  stepInto(message: AssistantMessage, event: AssistantMessageEvent, out: MessageUpdate[]): void {
    if (!isDelta(event)) {
      this.#flushInto(out);
      out.push(this.#update(message, event));
      return;
    }
    const held = this.#held;
    if (held && held.event.type === event.type && held.event.contentIndex === event.contentIndex) {
      held.event.delta += event.delta; // a copy of our own, made when the delta was first held
      held.message = message;
    } else {
      this.#flushInto(out);
      this.#held = { message, event: { ...event } };
    }
    this.#heldChars += event.delta.length;
    this.#streamed += event.delta.length;
    if (this.#heldChars * GROWTH_SHARE >= this.#streamed || this.#timedUpdateDue()) this.#flushInto(out);
  }

  /** The held delta as one update, if any (before the message ends). */
  flush(): MessageUpdate[] {
    const out: MessageUpdate[] = [];
    this.#flushInto(out);
    return out;
  }

  #flushInto(out: MessageUpdate[]): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    this.#heldChars = 0;
    out.push(this.#update(held.message, held.event));
  }

  #timedUpdateDue(): boolean {
    return this.#snapshots + this.#streamed <= TIMED_BUDGET && this.#now() - this.#lastEmit >= MAX_HOLD_MS;
  }

  #update(message: AssistantMessage, event: AssistantMessageEvent): MessageUpdate {
    this.#lastEmit = this.#now();
    this.#snapshots += this.#streamed;
    return { type: "message_update", message, assistantMessageEvent: event };
  }
}

// One coalescer per streamed message: its layout (and the code built on it) outlives each run.
keepShape(new UpdateCoalescer(Date.now));
