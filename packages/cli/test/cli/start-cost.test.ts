import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-helpers.ts";

/**
 * A preload that logs every module the process loads, ES modules through a resolve hook (on the
 * hooks thread) and CommonJS through Module._load, one line each, to the file in GH_MODULE_LOG.
 */
const PRELOAD = `import { appendFileSync } from "node:fs";
import { Module, register } from "node:module";
const log = process.env.GH_MODULE_LOG;
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function resolve(spec, context, next) {
  const result = await next(spec, context);
  appendFileSync(\${JSON.stringify(log)}, "esm " + result.url + "\\\\n");
  return result;
}\`));
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const exported = load.call(this, request, parent, isMain);
  try { appendFileSync(log, "cjs " + Module._resolveFilename(request, parent, isMain) + "\\n"); } catch {}
  return exported;
};
`;

// The start-up budget of a one-shot command (issue 12: ≤ 3× node -e 0): these packages are loaded
// only when a command needs them (a transpiled extension, a log line, a hook run, a watch).
describe("what gatehouse tools loads in a project with both plugins", () => {
  it("the plugins load (natively, from their built dist), and neither jiti, pino, tapable, chokidar nor sucrase does", async () => {
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
    const run = await runCli(["tools", "--cwd", project], {
      env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, GH_MODULE_LOG: logFile },
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const loaded = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
    expect(loaded.some((l) => /protected-paths\/dist\/index\.js$/.test(l))).toBe(true);
    expect(loaded.some((l) => /tool-audit\/dist\/index\.js$/.test(l))).toBe(true);
    expect(loaded.some((l) => /\/zod\//.test(l))).toBe(true);
    const lazy = loaded.filter((l) => /\/node_modules\/(jiti|pino|tapable|chokidar|sucrase)\//.test(l));
    expect(lazy).toEqual([]);
  });
});
