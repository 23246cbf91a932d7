import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { CLI_ARGV, collect, runCli, writeScript } from "./cli-helpers.ts";

// A Gatehouse home on a read-only file system: the run is refused before the model starts (exit 2,
// "an unusable GATEHOUSE_HOME"), with or without a session. Without a session it once started the
// model and stopped at the first tool call ("Stopped by extension tool-audit … EROFS", exit 1).
// bubblewrap binds the home read-only (a chmod does not stop root, whom CI may run as).

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];
const write = { type: "toolCall", id: "W", name: "write", arguments: { path: "marker.txt", content: "m" } };
const turns = [{ content: [write] }, { content: [{ type: "text", text: "done" }] }];
// As runCli does: without vitest's NODE_PATH, which would let the child find packages a user's cannot.
const { NODE_PATH: _, ...inheritedEnv } = process.env;

describe("a read-only Gatehouse home", () => {
  for (const flags of [["--no-session"], []]) {
    it(`refuses the run before the model starts (exit 2) ${flags.length ? "with --no-session" : "with a session"}`, async () => {
      const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
      // Fill the home's caches first, so nothing fails before the run but the writes the run needs.
      expect((await runCli(["extensions", "--cwd", p.dir], { env: p.env })).code).toBe(0);
      const script = writeScript(tempDir(), turns);
      const args = ["run", "--cwd", p.dir, "--script", script, "--json", ...flags];
      const bwrap = ["--bind", "/", "/", "--ro-bind", p.home, p.home, "--dev", "/dev", "--proc", "/proc"];
      const child = spawn("bwrap", [...bwrap, process.execPath, ...CLI_ARGV, ...args], {
        env: { ...inheritedEnv, NO_COLOR: "1", ...p.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const run = await collect(child, "");
      expect(run.stderr).toBe(
        `gatehouse: Gatehouse state directory ${p.home} cannot be written (read-only file system (EROFS)); Gatehouse keeps trust, caches, audit logs and keys there and refuses to use it\n`,
      );
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(existsSync(join(p.dir, "marker.txt"))).toBe(false);
    });
  }

  it("runs normally once the same home is writable", async () => {
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: PLUGINS }) });
    const run = await runCli(["run", "--cwd", p.dir, "--script", writeScript(tempDir(), turns), "--no-session"], {
      env: p.env,
    });
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(existsSync(join(p.dir, "marker.txt"))).toBe(true);
  });
});
