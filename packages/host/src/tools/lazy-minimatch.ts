import { createRequire } from "node:module";
import type * as Minimatch from "minimatch";
import { readyResolver } from "../common/resolver-stat.ts";

let loaded: typeof Minimatch.minimatch | undefined;

/**
 * minimatch's `minimatch`, loaded at the first glob test of find or grep: a command that runs no
 * search (`gatehouse tools`) does not pay for loading its eight files at start.
 */
export function minimatch(...args: Parameters<typeof Minimatch.minimatch>): boolean {
  if (!loaded) readyResolver();
  loaded ??= (createRequire(import.meta.url)("minimatch") as typeof Minimatch).minimatch;
  return loaded(...args);
}
