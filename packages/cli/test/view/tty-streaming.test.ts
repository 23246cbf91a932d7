import type { AssistantMessage, GatehouseEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { assistant, message, pieces, streamUpdates, text, thinking } from "./helpers/events.ts";
import { screen, stripAnsi } from "./helpers/terminal.ts";
import { partialAssistant, plainView, textDeltas, ttyView, updateOf } from "./helpers/views.ts";

/** Feeds `events` to a TTY view and a plain view; returns the TTY screen and the plain lines. */
function bothModes(events: readonly GatehouseEvent[], columns = 100): { tty: string[]; plain: string[] } {
  const t = ttyView({ columns });
  const p = plainView(columns - 1);
  for (const event of events) {
    t.view.onEvent(event);
    p.view.onEvent(event);
  }
  t.view.close();
  p.view.close();
  return { tty: screen(t.out.text, { columns }), plain: p.out.lines() };
}

/** The streamed events of `m` in deltas of `size`, between message_start and message_end. */
function streamed(m: AssistantMessage, size: number): GatehouseEvent[] {
  const partial = partialAssistant();
  return [
    { type: "message_start", message: partial },
    ...streamUpdates(m, partial, size),
    { type: "message_end", message: m },
  ];
}

const PROSE =
  "Gatehouse owns everything after the model's intent: lookup, validation, the guards, execution and the audit of every call.";

describe("live view, TTY mode, streaming assistant text", () => {
  it("writes each word as soon as it is complete and continues the row with the next", () => {
    const { out, view } = ttyView();
    const partial = partialAssistant();
    const [d1, d2, d3] = textDeltas(partial, 0, ["Hello wo", "rld.\nSecond", " line"]);
    view.onEvent({ type: "message_start", message: partial });
    view.onEvent(updateOf(partial, { type: "text_start", contentIndex: 0 }));
    view.onEvent(d1!);
    expect(screen(out.text)).toEqual(["● Hello"]);
    view.onEvent(d2!);
    // The row ended with the newline; "Second" waits for the end of its word, the region shows meanwhile.
    expect(screen(out.text)).toEqual(["● Hello world.", "⠋ model 0.0s"]);
    view.onEvent(d3!);
    expect(screen(out.text)).toEqual(["● Hello world.", "  Second"]);
    view.onEvent(updateOf(partial, { type: "text_end", contentIndex: 0, content: "Hello world.\nSecond line" }));
    expect(screen(out.text)).toEqual(["● Hello world.", "  Second line", "⠋ model 0.0s"]);
    view.onEvent({ type: "message_end", message: assistant([text("Hello world.\nSecond line")]) });
    expect(screen(out.text)).toEqual(["● Hello world.", "  Second line"]);
  });

  it("prints streamed text once: message_end adds nothing for blocks already written", () => {
    const final = assistant([text("Only once, please.")]);
    const { out, view } = ttyView();
    for (const event of message(final)) view.onEvent(event);
    view.close();
    expect(screen(out.text)).toEqual(["● Only once, please."]);
    expect(stripAnsi(out.text).split("Only once").length - 1).toBe(1);
  });

  it("redraws the live region between streamed rows without touching the text above it", () => {
    const { out, clock, ticker, view } = ttyView();
    const partial = partialAssistant();
    const [d1, d2] = textDeltas(partial, 0, ["first line\n", "second "]);
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_start", message: partial });
    view.onEvent(d1!);
    clock.advance(500);
    ticker.tick();
    expect(screen(out.text)).toEqual(["● first line", "⠙ model 0.5s"]);
    view.onEvent(d2!);
    expect(screen(out.text)).toEqual(["● first line", "  second"]);
    // While a row is open the region waits: a tick writes nothing into the text.
    const written = out.text;
    clock.advance(500);
    ticker.tick();
    expect(out.text).toBe(written);
  });

  it.each([1, 3, 16])("leaves the same screen as plain mode for text, thinking and calls in %i-char deltas", (size) => {
    const m = assistant([
      thinking("  Plan:\n\n  read first,\tthen write.  "),
      text("\n\n  Indented first line   \n\n\n  \nsecond\tline \r\nthird\n\n\n"),
      text("Another block."),
      { type: "toolCall", id: "W", name: "write", arguments: { path: "a.txt", content: "x" } },
    ]);
    const { tty, plain } = bothModes(streamed(m, size));
    expect(tty).toEqual(plain);
    expect(plain).toEqual([
      "✻ thinking: Plan: read first, then write.",
      "●   Indented first line",
      "",
      "",
      "",
      "  second  line",
      "  third",
      "● Another block.",
    ]);
  });

  it.each([60, 80, 120])(
    "wraps a long line at spaces, never inside a word, at %i columns, as plain mode does",
    (columns) => {
      for (const size of [1, 5, 16]) {
        const { tty, plain } = bothModes(streamed(assistant([text(`${PROSE} ${PROSE}`)]), size), columns);
        expect(tty).toEqual(plain);
        expect(tty.length).toBeGreaterThan(1);
        for (const row of tty) expect(row.length).toBeLessThanOrEqual(columns - 1);
        const words = `${PROSE} ${PROSE}`.split(" ");
        expect(tty.flatMap((row) => row.replace(/^● /, "").trim().split(" "))).toEqual(words);
      }
    },
  );

  it("cuts a word longer than a whole row at the row's end", () => {
    const { tty } = bothModes(streamed(assistant([text(`see ${"x".repeat(50)} now`)]), 7), 21);
    expect(tty).toEqual(["● see", `  ${"x".repeat(18)}`, `  ${"x".repeat(18)}`, `  ${"x".repeat(14)} now`]);
  });

  it("strips escape sequences and carriage returns even when a delta splits them", () => {
    const partial = partialAssistant();
    const deltas = ["hi \u001b[3", "1mred\u001b[0m \u001b]0;ti", "tle\u0007done\r", "\nnext\u001b", "[2J!"];
    const events: GatehouseEvent[] = [
      { type: "message_start", message: partial },
      ...textDeltas(partial, 0, deltas),
      { type: "message_end", message: assistant([text(deltas.join(""))]) },
    ];
    const t = ttyView();
    for (const event of events) t.view.onEvent(event);
    expect(screen(t.out.text)).toEqual(["● hi red done", "  next!"]);
    expect(t.out.text).not.toContain("\u001b]");
    expect(t.out.text).not.toContain("\u001b[2J");
    expect(bothModes(events).plain).toEqual(["● hi red done", "  next!"]);
  });

  it("shows an error clearly below text streamed before the model failed", () => {
    const { out, view } = ttyView();
    const partial = partialAssistant();
    view.onEvent({ type: "agent_start" });
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_start", message: partial });
    view.onEvent(updateOf(partial, { type: "text_start", contentIndex: 0 }));
    for (const event of textDeltas(partial, 0, ["Let me ", "che"])) view.onEvent(event);
    const failed = assistant([text("Let me che")], {
      stopReason: "error",
      errorMessage: "429 Too Many Requests: rate limited\nretry after 20s",
    });
    view.onEvent({ type: "message_end", message: failed });
    view.onEvent({ type: "turn_end", message: failed, toolResults: [] });
    view.onEvent({ type: "agent_end", messages: [failed] });
    expect(screen(out.text)).toEqual([
      "● Let me che",
      "✗ model error: 429 Too Many Requests: rate limited",
      "  retry after 20s",
      "",
      "failed · 1 turn · no tool calls · 0.0s",
    ]);
  });

  it("puts a warning that comes mid-row on its own row and continues the text below it", () => {
    const { out, view } = ttyView();
    const partial = partialAssistant();
    const [d1, d2] = textDeltas(partial, 0, ["half a ", "line\nnext"]);
    view.onEvent({ type: "message_start", message: partial });
    view.onEvent(d1!);
    view.onEvent({ type: "extension_error", extension: "audit", hook: "message_update", error: "disk full" });
    view.onEvent(d2!);
    view.onEvent({ type: "message_end", message: assistant([text("half a line\nnext")]) });
    expect(screen(out.text)).toEqual([
      "● half a",
      "⚠ extension audit failed in message_update: disk full",
      "  line",
      "  next",
    ]);
  });

  it("erases the region before text and draws it again only once a row is complete", () => {
    const { out, view } = ttyView({ color: false });
    const partial = partialAssistant();
    const [d1, d2] = textDeltas(partial, 0, ["one ", "two\n"]);
    view.onEvent({ type: "turn_start" });
    view.onEvent({ type: "message_start", message: partial });
    const before = out.chunks.length;
    view.onEvent(d1!);
    view.onEvent(d2!);
    expect(out.chunks.slice(before)).toEqual(["\r\u001b[J● one", " two\n⠋ model 0.0s"]);
  });

  it("writes a text block whole from its end event when no delta came", () => {
    const partial = partialAssistant();
    partial.content.push(text("Whole at once"));
    const events: GatehouseEvent[] = [
      { type: "message_start", message: partial },
      updateOf(partial, { type: "text_end", contentIndex: 0, content: "Whole at once" }),
      { type: "message_end", message: assistant([text("Whole at once")]) },
    ];
    expect(bothModes(events).tty).toEqual(["● Whole at once"]);
  });
});

describe("live view, TTY mode, streaming thinking", () => {
  it("streams thinking dimmed and in italics on one row that fills in", () => {
    const { out, view } = ttyView({ color: true });
    const partial = partialAssistant();
    view.onEvent({ type: "message_start", message: partial });
    view.onEvent(updateOf(partial, { type: "thinking_start", contentIndex: 0 }));
    view.onEvent(updateOf(partial, { type: "thinking_delta", contentIndex: 0, delta: "Check the\n" }));
    expect(screen(out.text)).toEqual(["✻ thinking: Check the"]);
    view.onEvent(updateOf(partial, { type: "thinking_delta", contentIndex: 0, delta: "  policy." }));
    expect(screen(out.text)).toEqual(["✻ thinking: Check the policy."]);
    expect(out.text).toContain("\u001b[2m\u001b[3m✻ thinking: Check the\u001b[23m\u001b[22m");
  });

  it.each([60, 120])(
    "cuts a long thinking block at the row's end (%i columns), then … and the region again",
    (columns) => {
      const { out, view } = ttyView({ columns });
      const long = `${"word ".repeat(60)}SECRET-TAIL ${"more ".repeat(40)}`;
      const partial = partialAssistant();
      view.onEvent({ type: "turn_start" });
      view.onEvent({ type: "message_start", message: partial });
      view.onEvent(updateOf(partial, { type: "thinking_start", contentIndex: 0 }));
      for (const delta of pieces(long, 16)) {
        view.onEvent(updateOf(partial, { type: "thinking_delta", contentIndex: 0, delta }));
      }
      const line = `✻ thinking: ${long.slice(0, columns - 1 - 13)}…`;
      expect(screen(out.text, { columns })).toEqual([line, "⠋ model 0.0s · thinking…"]);
      view.onEvent(updateOf(partial, { type: "thinking_end", contentIndex: 0, content: long }));
      view.onEvent({ type: "message_end", message: assistant([thinking(long)]) });
      expect(screen(out.text, { columns })).toEqual([line]);
      expect(line.length).toBe(columns - 1);
      expect(out.text).not.toContain("SECRET-TAIL");
    },
  );

  it("keeps a short thinking block identical to the row plain mode prints", () => {
    const m = assistant([thinking("The user wants a file.\nCheck the policy first."), text("ok")]);
    const { tty, plain } = bothModes(streamed(m, 16));
    expect(tty).toEqual(plain);
    expect(tty).toEqual(["✻ thinking: The user wants a file. Check the policy first.", "● ok"]);
  });

  it("writes no thinking row for a blank thinking block", () => {
    const m = assistant([thinking(" \n "), text("answer")]);
    expect(bothModes(streamed(m, 2)).tty).toEqual(["● answer"]);
  });
});
