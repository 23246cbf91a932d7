import { AsyncSeriesBailHook, AsyncSeriesWaterfallHook } from "tapable";
import { describe, expect, it } from "vitest";
import { DeadlineQueue } from "../../src/hooks/deadline-queue.ts";
import { bail, type DispatchTap, tapsOf, waterfall } from "../../src/hooks/dispatch.ts";
import { callHandler } from "../../src/hooks/run-handler.ts";

const ctx = { signal: new AbortController().signal };
const deadlines = new DeadlineQueue(1000);
type Next<R> = (value: R) => unknown;
type Handler<R> = (state: string) => R | Promise<R>;
type TestTap<R> = DispatchTap<[string], R> & { name: string; handler: Handler<R> };

/** The tap function the way the bus writes one: module-level, given its tap; an asynchronous answer goes on to `next` itself. */
function callTest<R>(tap: TestTap<R>, state: string, next: Next<R>) {
  return callHandler(
    tap.handler,
    deadlines,
    state,
    ctx,
    (out) => (out.ok ? out.value : (`failed: ${out.error.message}` as R)),
    next,
  );
}

/** Taps `handler` the way the bus does: the tap options carry the handler, tapable keeps them on the tap. */
function tapOn<R>(hook: { tap: (options: never, fn: never) => void }, name: string, handler: Handler<R>) {
  hook.tap({ name, handler } as never, callTest as never);
}

const ordered = <R>(hook: { taps: readonly object[] }) => tapsOf<TestTap<R>>(hook);

describe("bail", () => {
  it("goes on to the next tap in the step that settles an asynchronous one, and stops at the first answer", async () => {
    const hook = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    const seen: string[] = [];
    tapOn(hook, "a", async (s) => void seen.push(`a:${s}`));
    tapOn(hook, "b", (s) => void seen.push(`b:${s}`));
    tapOn(hook, "c", async (s) => `c answered ${s}`);
    tapOn(hook, "d", async () => "never asked");
    const taps = ordered<string | undefined>(hook);
    expect(taps.map((t) => t.name)).toEqual(["a", "b", "c", "d"]);
    expect(await bail(taps, "x", (v) => `end(${v})`)).toBe("end(c answered x)");
    expect(seen).toEqual(["a:x", "b:x"]);
  });

  it("returns the promise the tap made (no promise of its own around it), and stays synchronous for synchronous taps", () => {
    let made: unknown;
    const asyncTap = {
      fn: (_tap: unknown, _s: string, next: Next<string | undefined>) => {
        made = Promise.resolve().then(() => next(undefined));
        return made;
      },
    };
    expect(bail<string, string>([asyncTap], "x")).toBe(made);
    const sync = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    tapOn(sync, "s", (s) => `sync ${s}`);
    expect(bail<string, string>(ordered<string | undefined>(sync), "y")).toBe("sync y");
  });

  it("keeps tapable's order when a tap asks to go first", () => {
    const hook = new AsyncSeriesBailHook<[string], string | undefined>(["state"]);
    tapOn(hook, "late", () => "late");
    hook.tap({ name: "early", stage: -1, handler: () => "early" } as never, callTest as never);
    expect(bail<string, string>(ordered<string | undefined>(hook), "x")).toBe("early");
  });
});

describe("waterfall", () => {
  it("hands each tap the value the one before it returned, across asynchronous taps, and keeps it on undefined", async () => {
    const hook = new AsyncSeriesWaterfallHook<[string]>(["state"]);
    tapOn(hook, "a", async (s) => `${s}+a`);
    tapOn(hook, "b", () => undefined);
    tapOn(hook, "c", async (s) => `${s}+c`);
    tapOn(hook, "d", (s) => `${s}+d`);
    expect(await waterfall(ordered<string | undefined>(hook), "x", (v) => `end(${v})`)).toBe("end(x+a+c+d)");
  });

  it("a failing asynchronous handler's outcome goes on down the chain like any answer", async () => {
    const hook = new AsyncSeriesWaterfallHook<[string]>(["state"]);
    tapOn(hook, "a", async () => {
      throw new Error("boom");
    });
    tapOn(hook, "b", async (s) => `${s}, then b`);
    expect(await waterfall(ordered<string | undefined>(hook), "x")).toBe("failed: boom, then b");
  });
});
