import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-helpers.ts";

/**
 * A preload that logs every script the process compiles (ES modules, however they are loaded —
 * `import()` or the bin's `require()` of an ES module graph, which module hooks do not see — and
 * CommonJS), one file URL or path a line, to the file in GH_MODULE_LOG when the process exits.
 */
const PRELOAD = `import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
const session = new Session();
session.connect();
const loaded = new Set();
session.on("Debugger.scriptParsed", ({ params }) => {
  if (params.url && !params.url.startsWith("node:")) loaded.add(params.url);
});
session.post("Debugger.enable");
process.on("exit", () => writeFileSync(process.env.GH_MODULE_LOG, [...loaded].join("\\n")));
`;

/** The scripts a CLI run compiled, in order, and what it printed. */
async function modulesLoadedBy(args: (project: string) => string[]) {
  const dir = mkdtempSync(join(tmpdir(), "gh-start-"));
  const project = join(dir, "project");
  mkdirSync(join(project, ".gatehouse"), { recursive: true });
  writeFileSync(
    join(project, ".gatehouse", "settings.json"),
    JSON.stringify({ extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] }),
  );
  const preload = join(dir, "preload.mjs");
  writeFileSync(preload, PRELOAD);
  const logFile = join(dir, "modules.log");
  writeFileSync(logFile, "");
  const run = await runCli(args(project), {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, GH_MODULE_LOG: logFile },
  });
  return { run, loaded: readFileSync(logFile, "utf8").split("\n").filter(Boolean) };
}

const HOST_INDEX = /\/host\/dist\/index\.js$/;

// The start-up budget of a one-shot command (issue 12: ≤ 3× node -e 0): these packages are loaded
// only when a command needs them (a transpiled extension, a log line, a hook run, a watch, a glob).
describe("what gatehouse tools loads in a project with both plugins", () => {
  it("the plugins load (natively, from their built dist), and neither jiti, pino, tapable, chokidar, sucrase nor minimatch does", async () => {
    const { run, loaded } = await modulesLoadedBy((project) => ["tools", "--cwd", project]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(loaded.some((l) => /protected-paths\/dist\/index\.js$/.test(l))).toBe(true);
    expect(loaded.some((l) => /tool-audit\/dist\/index\.js$/.test(l))).toBe(true);
    expect(loaded.some((l) => /\/zod\//.test(l))).toBe(true);
    const lazy = loaded.filter((l) => /\/node_modules\/(jiti|pino|tapable|chokidar|sucrase|minimatch)\//.test(l));
    expect(lazy).toEqual([]);
  });

  it("the bin loads the host before the command's module (one synchronous require of its graph), without a warning", async () => {
    const { run, loaded } = await modulesLoadedBy((project) => ["tools", "--cwd", project]);
    expect(run.stderr).toBe("");
    const host = loaded.findIndex((l) => HOST_INDEX.test(l));
    const command = loaded.findIndex((l) => /\/cli\/dist\/tools-command\.js$/.test(l));
    expect(host).toBeGreaterThan(-1);
    expect(command).toBeGreaterThan(host);
  });
});

describe("what help loads", () => {
  it("neither `gatehouse --help` nor `gatehouse tools --help` loads the host or zod", async () => {
    for (const args of [["--help"], ["tools", "--help"]]) {
      const { run, loaded } = await modulesLoadedBy(() => args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage");
      expect(loaded.filter((l) => HOST_INDEX.test(l) || /\/zod\//.test(l))).toEqual([]);
    }
  });
});
