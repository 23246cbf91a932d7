import { describe, expect, it } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { end, start, update } from "./helpers/events.ts";
import { PARALLEL_BATCH_LINES, parallelBatchRun, play } from "./helpers/scenarios.ts";
import { hasColorCodes, MemoryStream, screen } from "./helpers/terminal.ts";
import { ttyViewWith } from "./helpers/views.ts";

const ttyView = ttyViewWith;

/** The live region at the checkpoint "running": each running call with its progress under it. */
const REGION = ["⠋ bash sleep 0.2; exit 3 · 0.2s", "  └ step 2/2", "⠋ write playground/x.txt · 0.2s"];

describe("live view, TTY mode", () => {
  it("leaves the same rows as plain mode on screen once the run is over, with no live region", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun() });
    view.close();
    expect(screen(out.text, { columns: 100 })).toEqual(PARALLEL_BATCH_LINES);
  });

  it("keeps one block per running call at the bottom: its call line, elapsed time and latest progress", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "running" });
    expect(screen(out.text)).toEqual([...PARALLEL_BATCH_LINES.slice(0, 7), ...REGION]);
  });

  it("prints a warning above the live region and draws the region again below it", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "warned" });
    expect(screen(out.text).slice(-4)).toEqual(["⚠ extension tool-audit failed in tool_result: disk full", ...REGION]);
  });

  it("prints a finished call's block for good and keeps the calls still running below it", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "one-left" });
    expect(screen(out.text).slice(-4)).toEqual([
      "✓ write playground/x.txt",
      "  └ Wrote 12 bytes to playground/x.txt",
      "⠋ bash sleep 0.2; exit 3 · 0.5s",
      "  └ step 2/2",
    ]);
  });

  it("redraws the region in place (cursor up, erase down), never leaving a newline after it", () => {
    const { out, view } = ttyView();
    const cmd = { command: "make" };
    view.onEvent(start("B", "bash", cmd));
    view.onEvent(update("B", "bash", cmd, "step 1"));
    const before = out.chunks.length;
    view.onEvent(update("B", "bash", cmd, "step 2"));
    expect(out.chunks.slice(before).map(withoutColours)).toEqual(["\r\u001b[1A\u001b[J⠋ bash make · 0.0s\n  └ step 2"]);
    expect(screen(out.text)).toEqual(["⠋ bash make · 0.0s", "  └ step 2"]);
  });

  it("cuts every row to the terminal width, counting wide characters as two", () => {
    const columns = 40;
    const { out, view } = ttyView({ columns });
    const long = { command: `echo ${"a".repeat(200)}` };
    const wide = { path: "資料/設計書/とても長いファイル名です.md", content: "x" };
    view.onEvent(start("L", "bash", long));
    view.onEvent(start("W", "write", wide));
    view.onEvent(update("L", "bash", long, "b".repeat(200)));
    const rows = screen(out.text, { columns });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^⠋ bash echo a+… · 0\.0s$/);
    expect(rows[1]).toMatch(/^ {2}└ b+…$/);
    expect(rows[2]).toMatch(/^⠋ write 資料\/.*… · 0\.0s$/);
    for (const row of rows) expect(cellWidth(row)).toBeLessThanOrEqual(columns - 1);
  });

  it("keeps the region within the terminal's height, counting the calls that do not fit", () => {
    const out = new MemoryStream({ isTTY: true, columns: 60 });
    (out as unknown as { rows: number }).rows = 6;
    const view = createLiveView({ out, color: false, setInterval: () => 0, clearInterval: () => {} });
    for (const id of ["a", "b", "c", "d", "e", "f"]) view.onEvent(start(id, "read", { path: `${id}.txt` }));
    expect(screen(out.text)).toEqual([
      "⠋ read a.txt · 0.0s",
      "⠋ read b.txt · 0.0s",
      "⠋ read c.txt · 0.0s",
      "  … and 3 more running",
    ]);
  });

  it("falls back to 80 columns when the terminal reports no width", () => {
    const out = new MemoryStream({ isTTY: true, columns: 0 });
    const view = createLiveView({ out, env: {}, color: false, setInterval: () => 0, clearInterval: () => {} });
    view.onEvent(start("L", "bash", { command: "x".repeat(200) }));
    expect(screen(out.text)[0]).toBe(`⠋ bash ${"x".repeat(64)}… · 0.0s`);
  });

  it("colours marks with plain ANSI codes on a terminal by default", () => {
    const { out, view } = ttyView();
    view.onEvent(end("A", "read", { path: "a.ts" }, { outcome: "executed", text: "x" }));
    expect(out.text).toContain("\u001b[32m✓\u001b[39m");
    expect(hasColorCodes(out.text)).toBe(true);
  });

  it.each([
    ["color: false", { color: false }],
    ["NO_COLOR set", { env: { NO_COLOR: "1" } }],
    ["TERM=dumb", { env: { TERM: "dumb" } }],
  ])("writes no colour codes with %s", (_name, options) => {
    const { out, clock, view } = ttyView(options);
    play({ view, clock, steps: parallelBatchRun() });
    expect(hasColorCodes(out.text)).toBe(false);
    expect(out.text).toContain("\u001b[J");
  });

  it("never writes the contents of a large write, even in the live region", () => {
    const { out, view } = ttyView();
    const args = { path: "big.txt", content: "SECRET".repeat(50_000) };
    view.onEvent(start("W", "write", args));
    view.onEvent(update("W", "write", args, "writing"));
    view.onEvent(end("W", "write", args, { outcome: "executed", text: "Wrote 300000 bytes" }));
    expect(out.text).not.toContain("SECRET");
    expect(screen(out.text)).toEqual(["✓ write big.txt", "  └ Wrote 300000 bytes"]);
  });

  it("erases the region on close and prints the stopped summary in its place", () => {
    const { out, clock, view } = ttyView();
    play({ view, clock, steps: parallelBatchRun(), until: "running" });
    view.close({ exitCode: 1 });
    expect(screen(out.text).slice(-4)).toEqual([
      "  └ writes to .env are denied",
      "",
      "stopped (exit 1) · 1 turn · 3 tool calls: 1 blocked, 2 unfinished · 0.2s",
      "  left unfinished: bash sleep 0.2; exit 3 (still running) · write playground/x.txt (still running)",
    ]);
  });
});

/** Output without its colour codes (cursor movements kept). */
function withoutColours(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colour codes is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}

/** Terminal cells of a row: CJK and kana take two. */
function cellWidth(row: string): number {
  let width = 0;
  for (const ch of row) width += /[\u3000-\u9fff]/.test(ch) ? 2 : 1;
  return width;
}
