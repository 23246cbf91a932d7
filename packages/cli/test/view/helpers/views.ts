/**
 * Views wired to a memory stream, a hand-moved clock and a fake ticker, plus shorthands for the
 * streaming events of one assistant message.
 */
import type { AssistantMessage, AssistantMessageEvent, GatehouseEvent } from "@gatehouse/sdk";
import type { ColorEnv } from "../../../src/color-support.ts";
import { createLiveView } from "../../../src/view/index.ts";
import { createClock, createFakeTicker } from "./fake-ticker.ts";
import { MemoryStream } from "./terminal.ts";

/** A view in TTY mode with the view's own color default (NO_COLOR taken from `env`). */
export function ttyViewWith(options: { columns?: number; color?: boolean; env?: ColorEnv } = {}) {
  const out = new MemoryStream({ isTTY: true, columns: options.columns ?? 100 });
  const clock = createClock();
  const ticker = createFakeTicker();
  const view = createLiveView({
    out,
    now: clock.now,
    setInterval: ticker.setInterval,
    clearInterval: ticker.clearInterval,
    env: options.env ?? {},
    ...(options.color === undefined ? {} : { color: options.color }),
  });
  return { out, clock, ticker, view };
}

/** A view in TTY mode, colors off unless asked for. */
export function ttyView(options: { columns?: number; color?: boolean } = {}) {
  return ttyViewWith({ ...options, color: options.color ?? false });
}

/** A view in plain mode, `width` columns wide (default 80), colours off. */
export function plainView(width?: number) {
  const out = new MemoryStream();
  const clock = createClock();
  const ticker = createFakeTicker();
  const view = createLiveView({ out, now: clock.now, ...ticker, env: {}, color: false, ...(width ? { width } : {}) });
  return { out, clock, ticker, view };
}

/** The lines a plain view `width` columns wide prints for `events`, closed with exit code 0. */
export function renderPlain(events: readonly GatehouseEvent[], width: number): string[] {
  const { out, view } = plainView(width);
  for (const event of events) view.onEvent(event);
  view.close({ exitCode: 0 });
  return out.lines();
}

/** An empty partial assistant message, as a model adapter starts one. */
export const partialAssistant = (): AssistantMessage => ({
  role: "assistant",
  content: [],
  stopReason: "stop",
  timestamp: 0,
});

/** A `message_update` of `partial`. */
export const updateOf = (partial: AssistantMessage, event: AssistantMessageEvent): GatehouseEvent => ({
  type: "message_update",
  message: partial,
  assistantMessageEvent: event,
});

/** `text_delta` events of block `contentIndex`, appending to the partial's text block as a model does. */
export function textDeltas(partial: AssistantMessage, contentIndex: number, deltas: string[]): GatehouseEvent[] {
  return deltas.map((delta) => {
    const block = partial.content[contentIndex];
    if (block?.type === "text") block.text += delta;
    else partial.content[contentIndex] = { type: "text", text: delta };
    return updateOf(partial, { type: "text_delta", contentIndex, delta });
  });
}
