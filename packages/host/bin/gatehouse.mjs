#!/usr/bin/env node
// Runs the Gatehouse CLI from its TypeScript source: jiti transpiles on first use (with sucrase,
// Babel as the fallback) and caches the result, so there is no build step to remember after
// `pnpm install`.
import { createJiti } from "jiti";
import { createFastTransform, TRANSFORM_CACHE_DIR } from "../src/extensions/sucrase-transform.mjs";

const options = { fsCache: TRANSFORM_CACHE_DIR, moduleCache: true, interopDefault: false };
const babel = createJiti(import.meta.url, options);
const jiti = createJiti(import.meta.url, {
  ...options,
  transform: createFastTransform((input) => ({ code: babel.transform(input) })),
});
const { main } = await jiti.import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
