#!/usr/bin/env node
// Runs the Gatehouse CLI from its TypeScript source: jiti transpiles on first use (with sucrase,
// Babel as the fallback), so there is no build step to remember after `pnpm install`. Transpiled
// output is cached in the user's private Gatehouse home (GATEHOUSE_HOME/cache, MAC-ed with a
// per-user key), never in a shared temporary directory; if the home cannot be used, the CLI runs
// uncached and the command that needs the home reports why.
import { createJiti } from "jiti";
import { createFastTransform, TRANSFORM_VERSION } from "../src/extensions/sucrase-transform.mjs";
import { createCachedTransform } from "../src/extensions/transpile-cache.mjs";

const options = { fsCache: false, moduleCache: true, interopDefault: false };
const babel = createJiti(import.meta.url, options);
const fast = createFastTransform((input) => ({ code: babel.transform(input) }));

async function cachedTransform() {
  try {
    const boot = createJiti(import.meta.url, { ...options, transform: fast });
    const { gatehouseHome } = await boot.import("../src/config/gatehouse-home.ts");
    const { openTranspileCache } = await boot.import("../src/extensions/transpile-cache-dir.ts");
    const { dir, key } = openTranspileCache(gatehouseHome());
    return createCachedTransform({ transform: fast, dir, key, version: TRANSFORM_VERSION });
  } catch {
    return fast;
  }
}

const jiti = createJiti(import.meta.url, { ...options, transform: await cachedTransform() });
const { main } = await jiti.import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
