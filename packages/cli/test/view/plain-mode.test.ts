import { describe, expect, it } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { assistant, end, start, text, update } from "./helpers/events.ts";
import { createClock, createFakeTicker } from "./helpers/fake-ticker.ts";
import { erroredRun, PARALLEL_BATCH_LINES, parallelBatchRun, play } from "./helpers/scenarios.ts";
import { MemoryStream } from "./helpers/terminal.ts";

function plainView(options: { color?: boolean } = {}) {
  const out = new MemoryStream();
  const clock = createClock();
  const ticker = createFakeTicker();
  const view = createLiveView({ out, now: clock.now, ...ticker, env: {}, ...options });
  return { out, clock, ticker, view };
}

describe("live view, plain mode", () => {
  it("prints one line per start, end, assistant text, warning and the summary of a parallel batch", () => {
    const { out, clock, view } = plainView();
    play({ view, clock, steps: parallelBatchRun() });
    view.close({ exitCode: 0 });
    expect(out.lines()).toEqual(PARALLEL_BATCH_LINES);
  });

  it("writes no escape codes and starts no timer, even when colors are asked for", () => {
    const { out, clock, ticker, view } = plainView({ color: true });
    play({ view, clock, steps: parallelBatchRun() });
    expect(out.text).not.toContain("\u001b");
    expect(out.text).not.toContain("\r");
    expect(ticker.timers).toHaveLength(0);
  });

  it("prints an errored assistant message's text and error, and labels the summary failed", () => {
    const { out, clock, view } = plainView();
    play({ view, clock, steps: erroredRun() });
    expect(out.lines()).toEqual([
      "Let me check",
      "✗ model error: 429 Too Many Requests: rate limited",
      "  retry after 20s",
      "failed · 1 turn · no tool calls · 0.1s",
    ]);
  });

  it("says an aborted message was aborted even without an error message", () => {
    const { out, view } = plainView();
    view.onEvent({ type: "message_end", message: assistant([], { stopReason: "aborted" }) });
    expect(out.lines()).toEqual(["✗ aborted: the run was aborted"]);
  });

  it("names the outcome and the error of unknown, invalid and aborted calls", () => {
    const { out, view } = plainView();
    view.onEvent(end("U", "frobnicate", { level: 3 }, { outcome: "unknown", text: 'Tool "frobnicate" not found.' }));
    view.onEvent(
      end(
        "I",
        "write",
        { path: 42 },
        { outcome: "invalid", text: "Invalid arguments for write: path: expected string" },
      ),
    );
    view.onEvent(
      end(
        "M",
        "write",
        { path: "a" },
        { outcome: "invalid", text: "x", blockedBy: "rewriter", reason: "path: required" },
      ),
    );
    view.onEvent(end("X", "bash", { command: "sleep 9" }, { outcome: "aborted", text: "Tool call aborted." }));
    expect(out.lines()).toEqual([
      '✗ frobnicate level=3 · unknown: Tool "frobnicate" not found.',
      "✗ write path=42 · invalid: Invalid arguments for write: path: expected string",
      "✗ write a · invalid after rewriter: path: required",
      "✗ bash sleep 9 · aborted: Tool call aborted.",
    ]);
  });

  it("never prints the contents of write or edit arguments, only their lengths", () => {
    const { out, view } = plainView();
    const secret = "SECRET-".repeat(10_000);
    const write = { path: "big.txt", content: secret };
    const edit = { path: "big.txt", oldText: secret, newText: `${secret}!` };
    view.onEvent(start("W", "write", write));
    view.onEvent(end("W", "write", write, { outcome: "executed", text: "ok" }));
    view.onEvent(start("E", "edit", edit));
    view.onEvent(start("C", "custom", { content: secret, note: secret }));
    expect(out.text).not.toContain("SECRET");
    expect(out.lines()).toEqual([
      "→ write big.txt (70000 chars)",
      "✓ write big.txt (70000 chars) · ok",
      "→ edit big.txt (70000 → 70001 chars)",
      "→ custom content=<70000 chars> note=<70000 chars>",
    ]);
  });

  it("strips escape sequences and control characters that come from the model or a tool", () => {
    const { out, view } = plainView();
    view.onEvent({
      type: "message_end",
      message: assistant([text("hi \u001b]0;pwned\u0007there\u001b[31m red\u0000")]),
    });
    view.onEvent(end("B", "bash", { command: "echo\u001b[2J x" }, { outcome: "executed", text: "\u001b[1mbold\r\n" }));
    expect(out.lines()).toEqual(["hi there red", "✓ bash echo x · bold"]);
  });

  it("does not print progress updates", () => {
    const { out, view } = plainView();
    view.onEvent(start("B", "bash", { command: "make" }));
    view.onEvent(update("B", "bash", { command: "make" }, "step 1"));
    expect(out.lines()).toEqual(["→ bash make"]);
  });

  it("prints reloads that changed something and an extension error without a hook", () => {
    const { out, view } = plainView();
    view.onEvent({ type: "extensions_reloaded", loaded: ["a"], failed: ["b"], removed: [] });
    view.onEvent({ type: "extensions_reloaded", loaded: [], failed: [], removed: [] });
    view.onEvent({ type: "extension_error", extension: "b", source: "/x/b.ts", error: "SyntaxError: nope" });
    expect(out.lines()).toEqual([
      "↻ extensions reloaded: loaded a; failed b",
      "⚠ extension b (/x/b.ts) failed: SyntaxError: nope",
    ]);
  });

  it("prints a stopped summary with the exit code when closed before agent_end, then ignores events", () => {
    const { out, clock, view } = plainView();
    const cmd = { command: "sleep 9" };
    view.onEvent({ type: "agent_start" });
    view.onEvent({ type: "turn_start" });
    view.onEvent(start("A", "bash", cmd));
    view.onEvent(start("B", "bash", cmd));
    clock.advance(1_500);
    view.onEvent(end("A", "bash", cmd, { outcome: "executed", text: "" }));
    view.close({ exitCode: 130 });
    view.onEvent(start("C", "bash", cmd));
    view.close();
    expect(out.lines()).toEqual([
      "→ bash sleep 9",
      "→ bash sleep 9",
      "✓ bash sleep 9",
      "stopped (exit 130) · 1 turn · 2 tool calls: 1 ok, 1 unfinished · 1.5s",
    ]);
  });

  it("prints no summary on close when no run started", () => {
    const { out, view } = plainView();
    view.close({ exitCode: 1 });
    expect(out.text).toBe("");
  });
});
