import { AsyncSeriesBailHook, AsyncSeriesWaterfallHook } from "tapable";
import { describe, expect, it } from "vitest";
import { DeadlineQueue } from "../../src/hooks/deadline-queue.ts";
import { bailDispatch, waterfallDispatch } from "../../src/hooks/dispatch.ts";
import { handlerRunner } from "../../src/hooks/run-handler.ts";

const ctx = { signal: new AbortController().signal };
type Next<R> = (value: R) => unknown;

/** A tap the way the bus makes one: a handler run whose asynchronous answer goes on to `next` itself. */
function tapOf<R>(handler: (state: string) => R | Promise<R>) {
  const run = handlerRunner(handler, new DeadlineQueue(1000));
  return (state: string, next: Next<R>) =>
    run(state, ctx, (out) => (out.ok ? out.value : (`failed: ${out.error.message}` as R)), next);
}

describe("bailDispatch", () => {
  it("goes on to the next tap in the step that settles an asynchronous one, and stops at the first answer", async () => {
    const hook = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    const seen: string[] = [];
    hook.tap("a", tapOf(async (s) => void seen.push(`a:${s}`)) as never);
    hook.tap("b", tapOf((s) => void seen.push(`b:${s}`)) as never);
    hook.tap("c", tapOf(async (s) => `c answered ${s}`) as never);
    hook.tap("d", tapOf(async () => "never asked") as never);
    const dispatch = bailDispatch<string, string>(hook);
    expect(await dispatch("x", (v) => `end(${v})`)).toBe("end(c answered x)");
    expect(seen).toEqual(["a:x", "b:x"]);
  });

  it("returns the promise the tap made (no promise of its own around it), and stays synchronous for synchronous taps", () => {
    const hook = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    let made: unknown;
    hook.tap("a", ((_s: string, next: Next<string | undefined>) => {
      made = Promise.resolve().then(() => next(undefined));
      return made;
    }) as never);
    const dispatch = bailDispatch<string, string>(hook);
    expect(dispatch("x")).toBe(made);
    const sync = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    sync.tap("s", tapOf((s) => `sync ${s}`) as never);
    expect(bailDispatch<string, string>(sync)("y")).toBe("sync y");
  });
});

describe("waterfallDispatch", () => {
  it("hands each tap the value the one before it returned, across asynchronous taps, and keeps it on undefined", async () => {
    const hook = new AsyncSeriesWaterfallHook<[string]>(["state"]);
    hook.tap("a", tapOf(async (s) => `${s}+a`) as never);
    hook.tap("b", tapOf(() => undefined) as never);
    hook.tap("c", tapOf(async (s) => `${s}+c`) as never);
    hook.tap("d", tapOf((s) => `${s}+d`) as never);
    expect(await waterfallDispatch<string>(hook)("x", (v) => `end(${v})`)).toBe("end(x+a+c+d)");
  });

  it("a failing asynchronous handler's outcome goes on down the chain like any answer", async () => {
    const hook = new AsyncSeriesWaterfallHook<[string]>(["state"]);
    hook.tap(
      "a",
      tapOf(async () => {
        throw new Error("boom");
      }) as never,
    );
    hook.tap("b", tapOf(async (s) => `${s}, then b`) as never);
    expect(await waterfallDispatch<string>(hook)("x")).toBe("failed: boom, then b");
  });
});
