// Vitest's global setup: the CLI's tests run the built `gatehouse` (bin/gatehouse.js → dist/), as users
// do, so every package is rebuilt first when any of its sources is newer than its dist/ (a few
// seconds; nothing to do when dist/ is current).
import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsdown";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { buildConfigs, PACKAGES } = await import("./packages.mjs");

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function oldest(dir) {
  try {
    return Math.min(...readdirSync(dir).map((name) => statSync(join(dir, name)).mtimeMs));
  } catch {
    return 0;
  }
}

/** Builds the packages whose sources changed since their last build. */
export default async function setup() {
  const stale = PACKAGES.filter((pkg) => newest(join(root, pkg, "src")) > oldest(join(root, pkg, "dist")));
  for (const pkg of stale) {
    const dir = join(root, pkg);
    for (const config of await buildConfigs(dir)) await build({ ...config, cwd: dir, config: false });
  }
}
