import { readFileSync } from "node:fs";

/**
 * This package's version, read from its manifest: the same relative path from src/ and dist/
 * (keep this file at the top of src/). The packages are released in lockstep, so it is also the
 * Gatehouse release. Read as a file, not required: an agent hook records it at every call, and
 * the module loader's resolution costs more than the read.
 */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
