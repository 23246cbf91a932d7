#!/usr/bin/env node
// Builds the publishable packages (dist/: ESM + .d.ts) in one process: `pnpm build`, run by
// `pnpm install` (prepare) so `pnpm gatehouse` works from a fresh clone with no step to remember.
// Usage: node scripts/build.mjs [package-dir ...]   (default: every package and plugin)
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsdown";
import { buildConfigs, PACKAGES } from "./packages.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dirs =
  process.argv.length > 2 ? process.argv.slice(2).map((d) => resolve(d)) : PACKAGES.map((d) => join(root, d));
const started = performance.now();
for (const dir of dirs) {
  for (const config of await buildConfigs(dir)) await build({ ...config, cwd: dir, config: false });
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`built ${dirs.map((d) => relative(root, d)).join(", ")} in ${seconds} s`);
