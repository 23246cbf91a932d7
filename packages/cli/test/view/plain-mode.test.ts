import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { assistant, end, message, start, text, update, user } from "./helpers/events.ts";
import { createClock, createFakeTicker } from "./helpers/fake-ticker.ts";
import { erroredRun, PARALLEL_BATCH_LINES, parallelBatchRun, play } from "./helpers/scenarios.ts";
import { MemoryStream } from "./helpers/terminal.ts";

function plainView(options: { color?: boolean; width?: number } = {}) {
  const out = new MemoryStream();
  const clock = createClock();
  const ticker = createFakeTicker();
  const view = createLiveView({ out, now: clock.now, ...ticker, env: {}, ...options });
  return { out, clock, ticker, view };
}

/** A line of JavaScript with a template literal in it, as a file holds it. */
const GREETING = "`Hello, $" + "{name}!`";

/** An end event whose result carries `details` (a diff, a read's line count). */
function endWith(e: ToolExecutionEndEvent, details: unknown): ToolExecutionEndEvent {
  return { ...e, result: { ...e.result, details } };
}

describe("live view, plain mode", () => {
  it("prints the prompt, the assistant's text, one block per call, warnings and the summary of a parallel batch", () => {
    const { out, clock, view } = plainView();
    play({ view, clock, steps: parallelBatchRun() });
    view.close({ exitCode: 0 });
    expect(out.lines()).toEqual(PARALLEL_BATCH_LINES);
  });

  it("writes no escape codes and starts no timer without colours", () => {
    const { out, clock, ticker, view } = plainView({ color: false });
    play({ view, clock, steps: parallelBatchRun() });
    expect(out.text).not.toContain("\u001b");
    expect(out.text).not.toContain("\r");
    expect(ticker.timers).toHaveLength(0);
  });

  it("colours rows when colours are forced (FORCE_COLOR into a pipe), but never moves the cursor", () => {
    const { out, clock, ticker, view } = plainView({ color: true });
    play({ view, clock, steps: parallelBatchRun() });
    expect(out.text).toContain("\u001b[32m✓\u001b[39m");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for cursor movements is the point
    expect(out.text).not.toMatch(/\u001b\[\d*[AJK]|\r/);
    expect(ticker.timers).toHaveLength(0);
  });

  it("prints an errored assistant message's text and error, and labels the summary failed", () => {
    const { out, clock, view } = plainView();
    play({ view, clock, steps: erroredRun() });
    expect(out.lines()).toEqual([
      "› check",
      "",
      "● Let me check",
      "✗ model error: 429 Too Many Requests: rate limited",
      "  retry after 20s",
      "",
      "failed · 1 turn · no tool calls · 0.1s",
    ]);
  });

  it("says an aborted message was aborted even without an error message", () => {
    const { out, view } = plainView();
    view.onEvent({ type: "message_end", message: assistant([], { stopReason: "aborted" }) });
    expect(out.lines()).toEqual(["✗ aborted: the run was aborted"]);
  });

  it("names how unknown, invalid and aborted calls ended, with the message under the call", () => {
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
    view.onEvent(end("X", "bash", { command: "sleep 9" }, { outcome: "aborted", text: "Command aborted" }));
    expect(out.lines()).toEqual([
      "✗ frobnicate level=3 · unknown tool",
      '  └ Tool "frobnicate" not found.',
      "✗ write path=42 · invalid arguments",
      "  └ Invalid arguments for write: path: expected string",
      "✗ write a · invalid after rewriter",
      "  └ path: required",
      "✗ bash sleep 9 · aborted",
      "  └ Command aborted",
    ]);
  });

  it("never prints what write or edit arguments carry on the call line", () => {
    const { out, view } = plainView();
    const secret = "SECRET-".repeat(10_000);
    const write = { path: "big.txt", content: secret };
    const edit = { path: "big.txt", oldText: secret, newText: `${secret}!` };
    view.onEvent(start("W", "write", write));
    view.onEvent(end("W", "write", write, { outcome: "executed", text: "ok" }));
    view.onEvent(end("E", "edit", edit, { outcome: "executed", text: "Edited big.txt" }));
    view.onEvent(end("C", "custom", { content: secret, note: secret }, { outcome: "executed", text: "" }));
    expect(out.text).not.toContain("SECRET");
    expect(out.lines()).toEqual([
      "✓ write big.txt",
      "  └ ok",
      "✓ edit big.txt",
      "  └ Edited big.txt",
      "✓ custom content=<70000 chars> note=<70000 chars>",
    ]);
  });

  it("shows a coloured diff under an edit, with line numbers, and +N lines past twelve rows", () => {
    const { out, view } = plainView();
    const args = { path: "src/greet.js", oldText: "a", newText: "b" };
    const diff = {
      added: 1,
      removed: 1,
      hunks: [
        {
          oldStart: 1,
          newStart: 1,
          lines: [" export function greet(name) {", '-  return "Hello " + name;', `+  return ${GREETING};`, " }"],
        },
      ],
    };
    view.onEvent(endWith(end("E", "edit", args, { outcome: "executed", text: "Edited" }), { diff }));
    const long = {
      added: 30,
      removed: 0,
      hunks: [{ oldStart: 9, newStart: 9, lines: Array.from({ length: 30 }, (_, i) => `+line ${i}`) }],
    };
    view.onEvent(
      endWith(end("W", "write", { path: "x.txt", content: "…" }, { outcome: "executed", text: "Wrote" }), {
        diff: long,
      }),
    );
    expect(out.lines()).toEqual([
      "✓ edit src/greet.js · +1 −1",
      "  └ 1   export function greet(name) {",
      '    2 -   return "Hello " + name;',
      `    2 +   return ${GREETING};`,
      "    3   }",
      "✓ write x.txt · +30 −0",
      ...Array.from({ length: 12 }, (_, i) => `${i === 0 ? "  └ " : "    "}${String(9 + i).padStart(2)} + line ${i}`),
      "    … +18 lines",
    ]);
  });

  it("says how many lines a read returned and shows a new file's size, not its content", () => {
    const { out, view } = plainView();
    view.onEvent(
      endWith(end("R", "read", { path: "a.ts" }, { outcome: "executed", text: "x\ny" }), {
        lines: 120,
        startLine: 1,
        endLine: 120,
      }),
    );
    view.onEvent(
      endWith(end("P", "read", { path: "a.ts", offset: 10, limit: 5 }, { outcome: "executed", text: "x" }), {
        lines: 120,
        startLine: 10,
        endLine: 14,
      }),
    );
    view.onEvent(
      endWith(end("N", "write", { path: "n.md", content: "a\nb\n" }, { outcome: "executed", text: "Wrote 4 bytes" }), {
        created: true,
      }),
    );
    expect(out.lines()).toEqual([
      "✓ read a.ts · 120 lines",
      "✓ read a.ts:10-14 · lines 10–14 of 120",
      "✓ write n.md · new file, 2 lines",
    ]);
  });

  it("cuts a long output to its first and last rows with the count of the rest", () => {
    const { out, view } = plainView();
    const output = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join("\n");
    view.onEvent(end("B", "bash", { command: "seq 40" }, { outcome: "executed", text: output }));
    expect(out.lines()).toEqual([
      "✓ bash seq 40",
      "  └ row 1",
      "    row 2",
      "    … +36 lines",
      "    row 39",
      "    row 40",
    ]);
  });

  it("wraps a refusal's reason at word boundaries under the call, within the width", () => {
    const { out, view } = plainView({ width: 60 });
    const reason = 'Write to ".env" refused: .env files hold secrets and are protected (default denyWrite .env).';
    view.onEvent(
      end(
        "A",
        "write",
        { path: ".env", content: "X=1" },
        { outcome: "blocked", text: reason, blockedBy: "protected-paths", reason },
      ),
    );
    expect(out.lines()).toEqual([
      "⊘ write .env · blocked by protected-paths",
      '  └ Write to ".env" refused: .env files hold secrets and are',
      "    protected (default denyWrite .env).",
    ]);
    for (const line of out.lines()) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("scrubs secret shapes from call lines and outputs like the audit does", () => {
    const { out, view } = plainView({ width: 120 });
    const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345";
    const command = `curl -H "Authorization: Bearer ${"t".repeat(24)}" -d key=${key} https://x`;
    view.onEvent(
      end("B", "bash", { command }, { outcome: "executed", text: `export API_TOKEN=${"z".repeat(20)}\nok` }),
    );
    expect(out.text).not.toContain(key);
    expect(out.text).not.toContain("t".repeat(24));
    expect(out.text).not.toContain("z".repeat(20));
    expect(out.lines()).toEqual([
      '✓ bash curl -H "Authorization: Bearer [REDACTED:bearer-token]" -d key=[REDACTED:anthropic-key] https://x',
      "  └ export API_TOKEN=[REDACTED:assignment]",
      "    ok",
    ]);
  });

  it("strips escape sequences and control characters that come from the model or a tool", () => {
    const { out, view } = plainView();
    view.onEvent({
      type: "message_end",
      message: assistant([text("hi \u001b]0;pwned\u0007there\u001b[31m red\u0000")]),
    });
    view.onEvent(end("B", "bash", { command: "echo\u001b[2J x" }, { outcome: "executed", text: "\u001b[1mbold\r\n" }));
    expect(out.lines()).toEqual(["● hi there red", "", "✓ bash echo x", "  └ bold"]);
  });

  it("does not print progress updates, nor a call before it ends", () => {
    const { out, view } = plainView();
    view.onEvent(start("B", "bash", { command: "make" }));
    view.onEvent(update("B", "bash", { command: "make" }, "step 1"));
    expect(out.lines()).toEqual([]);
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

  it("an extension error keeps the lines after its heading: the file, line and what was expected", () => {
    const { out, view } = plainView({ width: 200 });
    const settings = "/p/.gatehouse/settings.json";
    view.onEvent({
      type: "extension_error",
      extension: "settings",
      error: `Invalid settings ${settings} (malformed JSON):\n  ${settings}:2:1: unexpected end of file (keeping the last good settings)`,
    });
    view.onEvent({
      type: "extension_error",
      extension: "bad",
      source: "/p/bad.ts",
      error: "ParseError: Unexpected token  \n /p/bad.ts:3:16",
    });
    expect(out.lines()).toEqual([
      `⚠ extension settings failed: Invalid settings ${settings} (malformed JSON): ${settings}:2:1: unexpected end of file (keeping the last good settings)`,
      "⚠ extension bad (/p/bad.ts) failed: ParseError: Unexpected token /p/bad.ts:3:16",
    ]);
  });

  it("prints a stopped summary with the exit code and what was still running when closed before agent_end", () => {
    const { out, clock, view } = plainView();
    const cmd = { command: "sleep 9" };
    view.onEvent({ type: "agent_start" });
    view.onEvent({ type: "turn_start" });
    view.onEvent(start("A", "bash", cmd));
    view.onEvent(start("B", "bash", cmd));
    clock.advance(1_500);
    view.onEvent(end("A", "bash", cmd, { outcome: "executed", text: "" }));
    view.close({ exitCode: 1 });
    view.onEvent(start("C", "bash", cmd));
    view.close();
    expect(out.lines()).toEqual([
      "✓ bash sleep 9",
      "",
      "stopped (exit 1) · 1 turn · 2 tool calls: 1 ok, 1 unfinished · 1.5s",
      "  left unfinished: bash sleep 9 (still running)",
    ]);
  });

  it("on Ctrl-C says so at once, then reads interrupted and lists the calls stopped and never started", () => {
    const { out, clock, view } = plainView();
    const slow = { command: "sleep 30" };
    const next = { path: "b.txt", content: "b" };
    const first = assistant([
      { type: "toolCall", id: "A", name: "bash", arguments: slow },
      { type: "toolCall", id: "B", name: "write", arguments: next },
    ]);
    const steps = [
      { type: "agent_start" },
      { type: "turn_start" },
      ...message(user("go")),
      ...message(first),
      start("A", "bash", slow),
    ] as const;
    for (const step of steps) view.onEvent(step);
    clock.advance(1_100);
    view.interrupt();
    view.onEvent(end("A", "bash", slow, { outcome: "aborted", text: "Command aborted" }));
    const skipped = {
      role: "toolResult" as const,
      toolCallId: "B",
      toolName: "write",
      content: [text("Tool call skipped: the run was aborted before it started.")],
      details: { skipped: true },
      isError: true,
      timestamp: 0,
    };
    for (const e of message(skipped)) view.onEvent(e);
    view.onEvent({ type: "agent_end", messages: [] });
    view.close({ exitCode: 130 });
    expect(out.lines()).toEqual([
      "› go",
      "⏹ interrupted: stopping the running call (Ctrl-C again quits at once)",
      "",
      "✗ bash sleep 30 · aborted",
      "  └ Command aborted",
      "✗ write b.txt · never started",
      "",
      "interrupted · 1 turn · 2 tool calls: 1 stopped, 1 never started · 1.1s",
      "  left unfinished: bash sleep 30 (stopped after 1.1s) · write b.txt (never",
      "    started)",
    ]);
  });

  it("prints no summary on close when no run started", () => {
    const { out, view } = plainView();
    view.close({ exitCode: 1 });
    expect(out.text).toBe("");
  });
});
