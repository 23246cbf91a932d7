// The demo under tmux, a real terminal, at 60, 80 and 120 columns: what the pane shows at the end is
// what the plain view prints for the same run one column narrower (the golden texts in
// test/view/golden), the summary aside (its time and session id change from run to run). tmux is
// required on Linux, like bubblewrap (.ci/run installs both); the captures are printed to the test
// log as screenshots.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GatehouseEvent } from "@gatehouse/sdk";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { callBlocks } from "../view/call-blocks.ts";
import { renderPlain } from "../view/helpers/views.ts";
import { CLI, runCli } from "./cli-helpers.ts";

const DEMO = join(CLI, "..", "..", "..", "..", "examples", "demo");
const SCRIPT = join(DEMO, "script.json");
const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;

let root = "";
let workspace = "";
let home = "";
let events: GatehouseEvent[] = [];

/** A fresh copy of the demo project, always at the same path (error messages name it). */
function freshWorkspace(): void {
  rmSync(workspace, { recursive: true, force: true });
  cpSync(join(DEMO, "project"), workspace, { recursive: true });
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "gh-tmux-")));
  workspace = join(root, "workspace");
  home = join(root, "home");
  freshWorkspace();
  const run = await runCli(["run", "--script", SCRIPT, "--cwd", workspace, "--json"], {
    env: { GATEHOUSE_HOME: home },
  });
  expect(run.code, run.stderr).toBe(0);
  events = run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as GatehouseEvent);
});

/** What the plain view prints for the demo's events at `width` columns. */
const plain = (width: number): string[] => renderPlain(events, width);

/** The demo run in a tmux pane `columns` wide; the pane's rows once the CLI has exited. */
function underTmux(columns: number): { rows: string[]; exit: string } {
  freshWorkspace();
  const socket = join(root, `tmux-${columns}.sock`);
  const tmux = (...args: string[]): SpawnSyncReturns<string> => {
    const result = spawnSync("tmux", ["-S", socket, ...args], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, GATEHOUSE_HOME: home, NO_COLOR: "1", FORCE_COLOR: undefined, TMUX: undefined },
    });
    expect(result.status, `tmux ${args[0]}: ${result.stderr}`).toBe(0);
    return result;
  };
  onTestFinished(() => {
    spawnSync("tmux", ["-S", socket, "kill-server"]);
  });
  const cli = [process.execPath, CLI, "run", "--script", SCRIPT, "--cwd", workspace].map((a) => `'${a}'`).join(" ");
  // The pane stays open after the CLI (cat waits on the terminal) so it can be captured.
  const shell = `${cli}; echo "EXIT:$?"; tmux -S '${socket}' wait-for -S done; cat`;
  tmux("new-session", "-d", "-x", String(columns), "-y", "200", "sh", "-c", shell);
  tmux("wait-for", "done");
  const pane = tmux("capture-pane", "-p", "-t", "0").stdout.split("\n");
  const rows = pane.map((row) => row.trimEnd());
  const exitAt = rows.findIndex((row) => row.startsWith("EXIT:"));
  console.log(`tmux ${columns} columns:\n${rows.slice(0, exitAt + 1).join("\n")}`);
  return { rows: rows.slice(0, exitAt), exit: rows[exitAt] ?? "" };
}

/** The rows before the summary, and the summary as one line. */
function split(rows: string[]): { body: string[]; summary: string } {
  const at = rows.findLastIndex((row) => /^done · /.test(row));
  return { body: rows.slice(0, at), summary: rows.slice(at).join(" ").replace(/ {2,}/g, " ").trim() };
}

describe("the demo under tmux", () => {
  it("tmux is installed (the live view is checked in a real terminal)", () => {
    expect(HAS_TMUX || process.platform !== "linux", "install tmux (apt-get install tmux)").toBe(true);
  });

  it.runIf(HAS_TMUX).each([60, 80, 120])(
    "at %i columns the pane shows what plain mode prints one column narrower, and exit 0",
    (columns) => {
      const { rows, exit } = underTmux(columns);
      expect(exit).toBe("EXIT:0");
      const seen = split(rows);
      const expected = split(plain(columns - 1));
      expect(callBlocks(seen.body)).toEqual(callBlocks(expected.body));
      expect(seen.summary).toMatch(
        /^done · 5 turns · 12 tool calls: 9 ok, 1 failed, 1 blocked, 1 invalid · \d+(\.\d+)?s · session [0-9a-f]{8}$/,
      );
      for (const row of rows) expect([...row].length).toBeLessThan(columns);
    },
  );
});
