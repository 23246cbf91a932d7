import { createRequire } from "node:module";
import type * as Tapable from "tapable";
import { readyResolver } from "./resolver-stat.ts";

let loaded: typeof Tapable | undefined;

/**
 * tapable, loaded when the first hook is built: a command that never runs a handler (`gatehouse
 * tools`, `--help`) does not pay for loading its sixteen CommonJS files at start.
 */
export function tapable(): typeof Tapable {
  if (loaded) return loaded;
  readyResolver();
  loaded = createRequire(import.meta.url)("tapable") as typeof Tapable;
  return loaded;
}
