// The demo's live view, frozen as golden text at 60, 80 and 120 columns: the events come from the
// real demo run through the built CLI (`--json`), the view renders them with a fixed clock and no
// colour, in plain mode and in a terminal. Review a golden file like a screenshot; after a
// deliberate change to the view, regenerate with `npx vitest run -u <this file>` and read the diff.

import { cpSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { GatehouseEvent } from "@gatehouse/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { createLiveView } from "../../src/view/index.ts";
import { runCli } from "../cli/cli-helpers.ts";
import { callBlocks } from "./call-blocks.ts";
import { createFakeTicker } from "./helpers/fake-ticker.ts";
import { MemoryStream, screen } from "./helpers/terminal.ts";
import { renderPlain } from "./helpers/views.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const DEMO = join(HERE, "..", "..", "..", "..", "examples", "demo");
const WIDTHS = [60, 80, 120] as const;

let events: GatehouseEvent[] = [];

beforeAll(async () => {
  const workspace = join(realpathSync(mkdtempSync(join(tmpdir(), "gh-golden-"))), "workspace");
  cpSync(join(DEMO, "project"), workspace, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "gh-golden-home-"));
  const run = await runCli(["run", "--script", join(DEMO, "script.json"), "--cwd", workspace, "--json"], {
    env: { GATEHOUSE_HOME: home },
  });
  expect(run.code, run.stderr).toBe(0);
  // Where the run happened is the only thing that changes from one run to the next.
  const text = run.stdout.replaceAll(workspace, "/demo/workspace").replaceAll(home, "/gatehouse-home");
  events = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as GatehouseEvent);
});

/** The demo rendered by a plain view `width` columns wide. */
const plain = (width: number): string[] => renderPlain(events, width);

/** What a terminal `columns` wide shows at the end of the demo (the spinner never ticks). */
function terminal(columns: number): string[] {
  const out = new MemoryStream({ isTTY: true, columns });
  const ticker = createFakeTicker();
  const view = createLiveView({ out, now: () => 0, env: {}, color: false, ...ticker });
  for (const event of events) view.onEvent(event);
  view.close({ exitCode: 0 });
  return screen(out.text, { columns });
}

/** Every word the model wrote in its text, as the view should keep it: whole, on one line. */
function modelWords(): string[] {
  const words = new Set<string>();
  for (const event of events) {
    if (event.type !== "message_end" || event.message.role !== "assistant") continue;
    for (const block of event.message.content) {
      if (block.type === "text") for (const word of block.text.split(/\s+/)) if (word) words.add(word);
    }
  }
  return [...words];
}

describe("the demo's live view at 60, 80 and 120 columns", () => {
  // Compared block by block with each turn's calls in text order (see callBlocks): the demo's
  // parallel calls finish in either order. After a deliberate change to the view, write the
  // files anew from plain(width) and update docs/live-view.md.
  it.each(WIDTHS)("at %i columns matches its golden text", (width) => {
    const golden = readFileSync(join(HERE, "golden", `demo-${width}.txt`), "utf8")
      .replace(/\n$/, "")
      .split("\n");
    expect(callBlocks(plain(width))).toEqual(callBlocks(golden));
  });

  it("docs/live-view.md shows the 80-column golden text as it is", () => {
    const doc = readFileSync(join(HERE, "..", "..", "..", "..", "docs", "live-view.md"), "utf8");
    const golden = readFileSync(join(HERE, "golden", "demo-80.txt"), "utf8");
    expect(doc).toContain(`\`\`\`\n${golden}\`\`\``);
  });

  it.each(WIDTHS)("at %i columns no line is wider than the width and no word is cut in two", (width) => {
    const lines = plain(width);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
    const words = modelWords();
    expect(words.length).toBeGreaterThan(10);
    for (const word of words) {
      if (word.length < width - 6)
        expect(
          lines.some((line) => line.includes(word)),
          word,
        ).toBe(true);
    }
  });

  it.each(WIDTHS)("a terminal %i columns wide shows what plain mode prints one column narrower", (width) => {
    expect(terminal(width)).toEqual(plain(width - 1));
  });

  it("says what every call did: each call once, the refusal with its guard, results nested under their calls", () => {
    const lines = plain(80);
    const calls = events.filter((e) => e.type === "tool_execution_start");
    expect(calls.length).toBeGreaterThan(5);
    for (const call of calls) {
      const starts = lines.filter((line) => /^[✓✗⊘!•·●○] /u.test(line) && line.includes(` ${call.toolName}`));
      expect(starts.length, call.toolName).toBeGreaterThan(0);
    }
    const nested = lines.filter((line) => line.startsWith("  "));
    expect(nested.length).toBeGreaterThan(calls.length);
    expect(lines.join("\n")).toMatch(/protected-paths/);
  });
});
