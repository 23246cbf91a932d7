import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GatehouseEvent } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { runScenario, tempDir } from "../../../host/test/helpers/scenario.ts";
import { createLiveView } from "../../src/view/index.ts";
import { createFakeTicker } from "./helpers/fake-ticker.ts";
import { MemoryStream, screen } from "./helpers/terminal.ts";

const turns = [
  {
    content: [
      { type: "thinking", thinking: "The user wants a note.\nWrite it, then answer." },
      { type: "text", text: "I'll write the note now; it takes one call and a short answer after it." },
      { type: "toolCall", id: "W", name: "write", arguments: { path: "notes/x.txt", content: "hello world\n" } },
    ],
    usage: { input: 1_180, output: 96 },
  },
  {
    content: [{ type: "text", text: "Done.\n\nThe note is in notes/x.txt." }],
    usage: { input: 1_320, output: 204 },
  },
];

describe("live view driven by the scripted model through the real host", () => {
  it("leaves the same screen in a terminal as plain mode prints, usage included, a new file counted", async () => {
    const columns = 100;
    const tty = new MemoryStream({ isTTY: true, columns });
    const plain = new MemoryStream();
    const ticker = createFakeTicker();
    const fixed = { now: () => 0, env: {}, color: false };
    const views = [
      createLiveView({ out: tty, ...fixed, setInterval: ticker.setInterval, clearInterval: ticker.clearInterval }),
      createLiveView({ out: plain, ...fixed, width: columns - 1 }),
    ];
    const onEvent = (event: GatehouseEvent) => {
      for (const view of views) view.onEvent(event);
    };
    await runScenario({ turns, prompt: "write a note", onEvent });
    for (const view of views) view.close({ exitCode: 0 });

    expect(screen(tty.text, { columns })).toEqual(plain.lines());
    expect(plain.lines()).toEqual([
      "› write a note",
      "",
      "✻ thinking: The user wants a note. Write it, then answer.",
      "● I'll write the note now; it takes one call and a short answer after it.",
      "",
      "✓ write notes/x.txt · new file, 1 line",
      "",
      "● Done.",
      "",
      "  The note is in notes/x.txt.",
      "",
      "done · 2 turns · 1 tool call: 1 ok · 2.5k in / 300 out tokens · 0.0s",
    ]);
    expect(ticker.timers.length).toBeGreaterThan(0);
    expect(ticker.alive()).toHaveLength(0);
  });

  it("shows a write over an existing file as a diff of what it replaced, like an edit", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "notes.txt"), "one\ntwo\nthree\n");
    const out = new MemoryStream();
    const view = createLiveView({ out, now: () => 0, env: {}, color: false, width: 80 });
    await runScenario({
      cwd,
      prompt: "rewrite",
      turns: [
        {
          content: [
            { type: "toolCall", id: "W", name: "write", arguments: { path: "notes.txt", content: "one\n2\nthree\n" } },
          ],
        },
        { content: [{ type: "text", text: "ok" }] },
      ],
      onEvent: (event) => view.onEvent(event),
    });
    view.close({ exitCode: 0 });
    const lines = out.lines();
    const call = lines.findIndex((line) => line.startsWith("✓ write notes.txt"));
    expect(lines[call]).toBe("✓ write notes.txt · +1 −1");
    expect(lines.slice(call + 1, call + 5)).toEqual(["  └ 1   one", "    2 - two", "    2 + 2", "    3   three"]);
  });
});
