import type { HandlerContext } from "@gatehouse/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineQueue } from "../../src/hooks/deadline-queue.ts";
import { callHandler, type HandlerOutcome } from "../../src/hooks/run-handler.ts";

const ctx = { signal: new AbortController().signal };

/** One handler bound to its deadlines, called the way a tap calls it. */
function handlerRunner<E, T>(handler: (event: E, ctx: HandlerContext) => T | Promise<T>, deadlines: DeadlineQueue) {
  return <R = HandlerOutcome<T>>(
    event: E,
    context: HandlerContext,
    then?: (outcome: HandlerOutcome<T>) => R,
    after?: (value: R) => unknown,
  ) => callHandler(handler, deadlines, event, context, then, after);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("callHandler", () => {
  it("hands a synchronous handler's outcome to the continuation at once, with no promise", () => {
    const run = handlerRunner((event: number) => event * 2, new DeadlineQueue(1000));
    const seen: HandlerOutcome<number>[] = [];
    const out = run(21, ctx, (o) => {
      seen.push(o);
      return "next";
    });
    expect(out).toBe("next");
    expect(seen).toEqual([{ ok: true, value: 42 }]);
    expect(run(1, ctx)).toEqual({ ok: true, value: 2 });
  });

  it("turns a throw into { ok: false } and still calls the continuation", () => {
    const run = handlerRunner(() => {
      throw new Error("boom");
    }, new DeadlineQueue(1000));
    const out = run(0, ctx, (o) => (o.ok ? "ok" : `failed: ${o.error.message}`));
    expect(out).toBe("failed: boom");
  });

  it("settles an asynchronous handler's promise with the continuation's value, in one step", async () => {
    const run = handlerRunner(async (event: string) => `${event}!`, new DeadlineQueue(1000));
    const calls: HandlerOutcome<string>[] = [];
    const out = run("hi", ctx, (o) => {
      calls.push(o);
      return o.ok ? o.value.length : -1;
    });
    expect(out).toBeInstanceOf(Promise);
    expect(await out).toBe(3);
    expect(calls).toEqual([{ ok: true, value: "hi!" }]);
    const rejected = handlerRunner(async () => Promise.reject(new Error("no")), new DeadlineQueue(1000));
    expect(await rejected(0, ctx)).toMatchObject({ ok: false, timedOut: false, error: { message: "no" } });
  });

  it("rejects when the continuation itself throws (as a .then continuation would), never hangs", async () => {
    const run = handlerRunner(async () => "x", new DeadlineQueue(1000));
    await expect(
      run(0, ctx, () => {
        throw new Error("continuation failed");
      }),
    ).rejects.toThrow("continuation failed");
  });

  it("times out a handler that never settles, exactly once, and ignores a late answer", async () => {
    vi.useFakeTimers();
    let answer!: (value: string) => void;
    const run = handlerRunner(() => new Promise<string>((resolve) => (answer = resolve)), new DeadlineQueue(50));
    const seen: HandlerOutcome<string>[] = [];
    const out = run(0, ctx, (o) => {
      seen.push(o);
      return o.ok;
    });
    vi.advanceTimersByTime(51);
    expect(await out).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ok: false, timedOut: true });
    answer("late");
    await Promise.resolve();
    expect(seen).toHaveLength(1);
  });
});
