import { describe, expect, it } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { end, start, update } from "./helpers/events.ts";
import { PARALLEL_BATCH_LINES, parallelBatchRun, play } from "./helpers/scenarios.ts";
import { hasColorCodes, MemoryStream, screen, stripAnsi } from "./helpers/terminal.ts";
import { ttyViewWith } from "./helpers/views.ts";

const ttyView = ttyViewWith;

const STATUS = "⠋ bash 0.2s, write 0.2s · bash: step 2/2";

describe("live view, TTY mode", () => {
  it("leaves the same lines as plain mode on screen once the run is over, with no status line", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun() });
    view.close();
    expect(screen(out.text, { columns: 100 })).toEqual(PARALLEL_BATCH_LINES);
  });

  it("keeps one status line at the bottom with the running tools, elapsed time and latest progress", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "running" });
    expect(screen(out.text)).toEqual([...PARALLEL_BATCH_LINES.slice(0, 6), STATUS]);
  });

  it("prints a warning above the status line and redraws the status below it", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "warned" });
    expect(screen(out.text).slice(-2)).toEqual(["⚠ extension tool-audit failed in tool_result: disk full", STATUS]);
  });

  it("drops a finished call from the status line and keeps the others", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "one-left" });
    expect(screen(out.text).slice(-2)).toEqual([
      "✓ write playground/x.txt (12 chars) · Wrote 12 bytes to playground/x.txt",
      "⠋ bash 0.5s · step 2/2",
    ]);
  });

  it("redraws the status line in place with carriage return and erase-line, never a newline", () => {
    const { out, view } = ttyView();
    const cmd = { command: "make" };
    view.onEvent(start("B", "bash", cmd));
    const before = out.chunks.length;
    view.onEvent(update("B", "bash", cmd, "step 1"));
    view.onEvent(update("B", "bash", cmd, "step 2"));
    expect(out.chunks.slice(before).map(stripAnsi)).toEqual(["\r⠋ bash 0.0s · step 1", "\r⠋ bash 0.0s · step 2"]);
    expect(out.chunks.slice(before).every((chunk) => chunk.includes("\u001b[2K"))).toBe(true);
  });

  it("cuts start, mark and status lines to the terminal width, counting wide characters as two", () => {
    const columns = 40;
    const { out, view } = ttyView({ columns });
    const long = { command: `echo ${"a".repeat(200)}` };
    const wide = { path: "資料/設計書/とても長いファイル名です.md", content: "x" };
    view.onEvent(start("L", "bash", long));
    view.onEvent(start("W", "write", wide));
    view.onEvent(update("L", "bash", long, "b".repeat(200)));
    const rows = screen(out.text, { columns });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^→ bash echo a+…$/);
    expect(rows[1]).toMatch(/^→ write 資料\/.*…$/);
    expect(rows[2]).toMatch(/^⠋ bash 0\.0s, write 0\.0s · bash: b+…$/);
    for (const row of rows) expect(cellWidth(row)).toBeLessThanOrEqual(columns - 1);
  });

  it("falls back to 80 columns when the terminal reports no width", () => {
    const out = new MemoryStream({ isTTY: true, columns: 0 });
    const view = createLiveView({ out, env: {}, color: false, setInterval: () => 0, clearInterval: () => {} });
    view.onEvent(start("L", "bash", { command: "x".repeat(200) }));
    expect(screen(out.text)[0]).toBe(`→ bash ${"x".repeat(71)}…`);
  });

  it("colors marks with plain ANSI codes by default", () => {
    const { out, view } = ttyView();
    view.onEvent(end("A", "read", { path: "a.ts" }, { outcome: "executed", text: "x" }));
    expect(out.text).toContain("\u001b[32m✓\u001b[39m");
    expect(hasColorCodes(out.text)).toBe(true);
  });

  it.each([
    ["color: false", { color: false }],
    ["NO_COLOR set", { env: { NO_COLOR: "1" } }],
    ["NO_COLOR set and color: true", { color: true, env: { NO_COLOR: "1" } }],
  ])("writes no color codes with %s", (_name, options) => {
    const { out, clock, view } = ttyView(options);
    play({ view, clock, steps: parallelBatchRun() });
    expect(hasColorCodes(out.text)).toBe(false);
    expect(out.text).toContain("\u001b[2K");
  });

  it("never writes the contents of a large write, even in the status line", () => {
    const { out, view } = ttyView();
    const args = { path: "big.txt", content: "SECRET".repeat(50_000) };
    view.onEvent(start("W", "write", args));
    view.onEvent(update("W", "write", args, "writing"));
    view.onEvent(end("W", "write", args, { outcome: "executed", text: "Wrote 300000 bytes" }));
    expect(out.text).not.toContain("SECRET");
    expect(screen(out.text)).toEqual([
      "→ write big.txt (300000 chars)",
      "✓ write big.txt (300000 chars) · Wrote 300000 bytes",
    ]);
  });

  it("erases the status line on close and prints the stopped summary in its place", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "running" });
    view.close({ exitCode: 130 });
    expect(screen(out.text).slice(-2)).toEqual([
      "→ write playground/x.txt (12 chars)",
      "stopped (exit 130) · 1 turn · 3 tool calls: 1 blocked, 2 unfinished · 0.2s",
    ]);
  });
});

/** Terminal cells of a row: CJK and kana take two. */
function cellWidth(row: string): number {
  let width = 0;
  for (const ch of row) width += /[\u3000-\u9fff]/.test(ch) ? 2 : 1;
  return width;
}
