// The build every package shares (each package's tsdown.config.mjs names only its entries): ESM for
// Node 20 plus `.d.ts`, one bundle per public entry, every dependency left external, the JavaScript
// pure ASCII (see scripts/ascii-output.mjs).
import { asciiOutput } from "./scripts/ascii-output.mjs";

/** @param {Record<string, string>} entry @returns {import("tsdown").UserConfig} */
export function packageBuild(entry) {
  return {
    entry,
    format: "esm",
    platform: "node",
    target: "node20.19",
    dts: true,
    clean: true,
    fixedExtension: false,
    hash: false,
    outDir: "dist",
    logLevel: "warn",
    checks: { pluginTimings: false },
    plugins: [asciiOutput()],
  };
}
