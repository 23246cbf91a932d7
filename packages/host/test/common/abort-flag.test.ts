import { describe, expect, it } from "vitest";
import { abortFlag } from "../../src/common/abort-flag.ts";

describe("abortFlag", () => {
  it("turns true when its signal aborts, and is the same flag for the same signal", () => {
    const controller = new AbortController();
    const flag = abortFlag(controller.signal);
    expect(flag.aborted).toBe(false);
    expect(abortFlag(controller.signal)).toBe(flag);
    let seenByLaterListener: boolean | undefined;
    controller.signal.addEventListener("abort", () => {
      seenByLaterListener = flag.aborted;
    });
    controller.abort();
    expect(flag.aborted).toBe(true);
    // A listener added after the flag was taken already sees it set.
    expect(seenByLaterListener).toBe(true);
  });

  it("is true at once for a signal that has already aborted, and each signal has its own flag", () => {
    expect(abortFlag(AbortSignal.abort()).aborted).toBe(true);
    const a = new AbortController();
    const b = new AbortController();
    a.abort();
    expect(abortFlag(a.signal).aborted).toBe(true);
    expect(abortFlag(b.signal).aborted).toBe(false);
  });

  it("follows a combined signal like any other", () => {
    const outer = new AbortController();
    const combined = AbortSignal.any([outer.signal]);
    const flag = abortFlag(combined);
    outer.abort();
    expect(flag.aborted).toBe(true);
  });
});
