import type { AssistantMessage, AssistantMessageEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { UpdateCoalescer } from "../../src/loop/update-coalescer.ts";

const message: AssistantMessage = { role: "assistant", content: [], stopReason: "stop", timestamp: 0 };
const text = (delta: string, contentIndex = 0): AssistantMessageEvent => ({ type: "text_delta", contentIndex, delta });

/** A clock the test moves by hand. */
function manualClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const kinds = (updates: { assistantMessageEvent: AssistantMessageEvent }[]) =>
  updates.map((u) => {
    const e = u.assistantMessageEvent;
    return "delta" in e ? `${e.type}:${e.delta}` : e.type;
  });

describe("UpdateCoalescer", () => {
  it("relays the first deltas of a message one by one", () => {
    const c = new UpdateCoalescer(manualClock().now);
    expect(kinds(c.step(message, { type: "text_start", contentIndex: 0 }))).toEqual(["text_start"]);
    expect(kinds(c.step(message, text("ab")))).toEqual(["text_delta:ab"]);
    expect(kinds(c.step(message, text("cd")))).toEqual(["text_delta:cd"]);
    expect(kinds(c.step(message, text("ef")))).toEqual(["text_delta:ef"]);
  });

  it("merges later deltas of one block in order and flushes them before the next non-delta event", () => {
    const c = new UpdateCoalescer(manualClock().now);
    c.step(message, text("x".repeat(100)));
    expect(c.step(message, text("a"))).toEqual([]);
    expect(c.step(message, text("b"))).toEqual([]);
    const end: AssistantMessageEvent = { type: "text_end", contentIndex: 0, content: "…" };
    const out = c.step(message, end);
    expect(kinds(out)).toEqual(["text_delta:ab", "text_end"]);
    expect(out.every((u) => u.type === "message_update" && u.message === message)).toBe(true);
  });

  it("never merges deltas of different blocks or kinds", () => {
    const c = new UpdateCoalescer(manualClock().now);
    c.step(message, text("x".repeat(100)));
    expect(c.step(message, text("a"))).toEqual([]);
    expect(kinds(c.step(message, text("b", 1)))).toEqual(["text_delta:a"]);
    expect(kinds(c.step(message, { type: "thinking_delta", contentIndex: 1, delta: "t" }))).toEqual(["text_delta:b"]);
    expect(kinds(c.flush())).toEqual(["thinking_delta:t"]);
    expect(c.flush()).toEqual([]);
  });

  it("keeps the serialised size of all updates proportional to the message, not its square", () => {
    const c = new UpdateCoalescer(manualClock().now);
    const chunk = "y".repeat(16);
    let streamed = 0;
    let snapshots = 0;
    let relayed = "";
    const count = (updates: ReturnType<UpdateCoalescer["step"]>) => {
      for (const u of updates) {
        snapshots += streamed;
        if ("delta" in u.assistantMessageEvent) relayed += u.assistantMessageEvent.delta;
      }
    };
    for (let i = 0; i < 65536; i++) {
      streamed += chunk.length;
      count(c.step(message, text(chunk)));
    }
    count(c.flush());
    expect(relayed.length).toBe(streamed);
    // One update per delta would be streamed²/32 ≈ 34 GB here; coalesced it stays within a few times 1 MiB.
    expect(snapshots).toBeLessThan(6 * streamed);
  });

  it("still relays a slowly streamed message at least every 100 ms", () => {
    const clock = manualClock();
    const c = new UpdateCoalescer(clock.now);
    c.step(message, text("x".repeat(1000)));
    expect(c.step(message, text("a"))).toEqual([]);
    clock.advance(99);
    expect(c.step(message, text("b"))).toEqual([]);
    clock.advance(1);
    expect(kinds(c.step(message, text("c")))).toEqual(["text_delta:abc"]);
  });

  it("stops timed updates once they have cost 4 MiB, leaving only the growth rule", () => {
    const clock = manualClock();
    const c = new UpdateCoalescer(clock.now);
    c.step(message, text("x".repeat(2 * 1024 * 1024 - 1)));
    clock.advance(100);
    expect(c.step(message, text("a"))).toHaveLength(1); // 2 MiB - 1 + 2 MiB: within the budget
    clock.advance(100);
    expect(c.step(message, text("b"))).toEqual([]);
  });
});
