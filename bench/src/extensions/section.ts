import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3 } from "../stats.ts";
import { measureReloads } from "./reload.ts";

const PLUGINS = ["@gatehouse/protected-paths", "@gatehouse/tool-audit", "@gatehouse/hello-tool"];
const CHILD = fileURLToPath(new URL("./load-child.mjs", import.meta.url));

function project(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), "gh-bench-ext-"));
  const home = mkdtempSync(join(tmpdir(), "gh-bench-home-"));
  mkdirSync(join(dir, ".gatehouse"));
  writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify({ extensions: PLUGINS }));
  return { dir, home };
}

/**
 * One child process loading the plugins; `cold` makes every jiti instance in it ignore the transpile
 * cache and rebuild it, as a first run would (the host's own load is untimed). JITI_FS_CACHE=false
 * does not do this: explicit options win over jiti's environment variables and the host's
 * extension loader passes `fsCache: true`, so such a "cold" load read the warm cache.
 */
function loadOnce(dir: string, home: string, cold: boolean): number {
  const env = { ...process.env, ...(cold ? { JITI_REBUILD_FS_CACHE: "true" } : {}) };
  const out = spawnSync(process.execPath, [CHILD, dir, home], { env, encoding: "utf8" });
  const line = out.stdout.trim().split("\n").at(-1) ?? "";
  let parsed: { ms: number; loaded: number; failed: string[] };
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error(`load benchmark child failed: ${out.stderr || out.stdout}`);
  }
  if (parsed.failed.length > 0) throw new Error(`plugins failed to load: ${parsed.failed.join("; ")}`);
  return parsed.ms;
}

/** Extension section: first-party plugin load time (cold and warm) and save-to-active reload time. */
export const extensionsSection: BenchSection = {
  name: "extensions",
  title: `Extensions: load of ${PLUGINS.length} first-party plugins, and hot reload (ms)`,
  async run({ runs, log, verbose }) {
    const { dir, home } = project();
    const cold: number[] = [];
    const warm: number[] = [];
    try {
      loadOnce(dir, home, false); // prime the transpile cache for the warm figure
      for (let i = 0; i < runs; i++) {
        cold.push(loadOnce(dir, home, true));
        warm.push(loadOnce(dir, home, false));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
    const reloads = await measureReloads(runs);
    if (verbose)
      log(
        `  cold ${cold.map((x) => x.toFixed(0)).join(" ")} · warm ${warm.map((x) => x.toFixed(0)).join(" ")} · reload ${reloads.map((x) => x.toFixed(0)).join(" ")}`,
      );
    const figures: Figure[] = [
      { name: "plugin load, cold (no jiti cache), ms", gatehouse: round3(median(cold)), target: "≤ 300" },
      { name: "plugin load, warm, ms", gatehouse: round3(median(warm)), target: "≤ 100" },
      { name: "reload, file saved → new version active, ms", gatehouse: round3(median(reloads)), target: "≤ 500" },
    ];
    return { rows: [], figures, targets: {} };
  },
};
