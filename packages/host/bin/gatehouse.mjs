#!/usr/bin/env node
// Runs the Gatehouse CLI from its TypeScript source: jiti transpiles on first use and caches the
// result, so there is no build step to remember after `pnpm install`.
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url, { fsCache: true, moduleCache: true, interopDefault: false });
const { main } = await jiti.import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
