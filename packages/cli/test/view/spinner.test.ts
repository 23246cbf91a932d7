import { afterEach, describe, expect, it, vi } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { SPINNER_FRAMES, SPINNER_INTERVAL_MS } from "../../src/view/spinner.ts";
import { end, start } from "./helpers/events.ts";
import { createClock, createFakeTicker } from "./helpers/fake-ticker.ts";
import { parallelBatchRun, play } from "./helpers/scenarios.ts";
import { MemoryStream, screen } from "./helpers/terminal.ts";

const cmd = { command: "make" };

function ttyView(options: { injected?: boolean } = {}) {
  const out = new MemoryStream({ isTTY: true, columns: 80 });
  const clock = createClock();
  const ticker = createFakeTicker();
  const timers =
    options.injected === false ? {} : { setInterval: ticker.setInterval, clearInterval: ticker.clearInterval };
  const view = createLiveView({ out, now: clock.now, env: {}, color: false, ...timers });
  return { out, clock, ticker, view };
}

const lastRow = (text: string): string | undefined => screen(text).at(-1);

describe("live view spinner", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts no timer until the model is asked or a tool runs", () => {
    const { ticker, view } = ttyView();
    view.onEvent({ type: "agent_start" });
    expect(ticker.timers).toHaveLength(0);
    view.onEvent(start("B", "bash", cmd));
    expect(ticker.alive()).toHaveLength(1);
    expect(ticker.alive()[0]!.ms).toBe(SPINNER_INTERVAL_MS);
  });

  it("advances one frame per tick and updates the elapsed time", () => {
    const { out, clock, ticker, view } = ttyView();
    view.onEvent(start("B", "bash", cmd));
    expect(lastRow(out.text)).toBe(`${SPINNER_FRAMES[0]} bash make · 0.0s`);
    clock.advance(80);
    ticker.tick();
    expect(lastRow(out.text)).toBe(`${SPINNER_FRAMES[1]} bash make · 0.1s`);
    clock.advance(1_000);
    ticker.tick();
    expect(lastRow(out.text)).toBe(`${SPINNER_FRAMES[2]} bash make · 1.1s`);
  });

  it("stops the timer when the last running call ends and restarts it for the next batch", () => {
    const { out, ticker, view } = ttyView();
    view.onEvent(start("A", "bash", cmd));
    view.onEvent(start("B", "bash", cmd));
    view.onEvent(end("A", "bash", cmd, { outcome: "executed", text: "" }));
    expect(ticker.alive()).toHaveLength(1);
    view.onEvent(end("B", "bash", cmd, { outcome: "executed", text: "" }));
    expect(ticker.alive()).toHaveLength(0);
    const written = out.text;
    ticker.tick();
    expect(out.text).toBe(written);
    view.onEvent(start("C", "bash", cmd));
    expect(ticker.timers).toHaveLength(2);
    expect(ticker.alive()).toHaveLength(1);
  });

  it("unrefs its timer so it never keeps the process alive", () => {
    const { ticker, view } = ttyView();
    view.onEvent(start("B", "bash", cmd));
    expect(ticker.timers[0]!.unrefed).toBe(true);
  });

  it("leaves no timer alive after close, even with calls still running, and ticks do nothing after", () => {
    const { out, clock, ticker, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "running" });
    expect(ticker.alive()).toHaveLength(1);
    view.close();
    expect(ticker.alive()).toHaveLength(0);
    const written = out.text;
    for (const timer of ticker.timers) timer.callback();
    expect(out.text).toBe(written);
  });

  it("uses the global timers by default and clears them on close", () => {
    vi.useFakeTimers();
    const { out, view } = ttyView({ injected: false });
    view.onEvent(start("B", "bash", cmd));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(SPINNER_INTERVAL_MS * 3);
    expect(lastRow(out.text)).toMatch(new RegExp(`^${SPINNER_FRAMES[3]} bash `));
    view.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("starts no timer in plain mode", () => {
    const out = new MemoryStream();
    const ticker = createFakeTicker();
    const view = createLiveView({ out, setInterval: ticker.setInterval, clearInterval: ticker.clearInterval });
    view.onEvent(start("B", "bash", cmd));
    expect(ticker.timers).toHaveLength(0);
    view.close();
  });
});
