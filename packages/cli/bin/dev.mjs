#!/usr/bin/env node
// Runs the CLI from its TypeScript sources, for contributors and the CLI's own tests: workspace
// packages resolve to their sources through the "@gatehouse/source" export condition (the process
// re-runs itself with it when needed) and jiti transpiles on the fly. Users run bin/gatehouse.js.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const CONDITION = "--conditions=@gatehouse/source";
if (!process.execArgv.includes(CONDITION)) {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [CONDITION, self, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}
const { createJiti } = await import("jiti");
const jiti = createJiti(import.meta.url, { moduleCache: true, interopDefault: false });
const { main } = await jiti.import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
