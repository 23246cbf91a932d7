import { createRequire } from "node:module";

/**
 * This package's version, read from its manifest: the same relative path from src/ and dist/
 * (keep this file at the top of src/). The packages are released in lockstep, so it is also the
 * Gatehouse release.
 */
export function cliVersion(): string {
  return (createRequire(import.meta.url)("../package.json") as { version: string }).version;
}
