import { join } from "node:path";
import { GatehouseError } from "../common/errors.ts";
import { ensurePrivateDir } from "../config/private-dir.ts";
import { readOrCreateKey } from "./transpile-cache.mjs";

/** Where transpiled modules are cached, and the key that MACs them. */
export interface TranspileCacheLocation {
  dir: string;
  key: Buffer;
}

/**
 * The transpile cache of a Gatehouse home: `<home>/cache/transpile/`, MAC-ed with the key in
 * `<home>/cache/transpile.key`; never a shared temporary directory.
 * Contract: every directory is private (see `ensurePrivateDir`) and the key file is the user's own,
 * or this throws GatehouseError `GH_STATE_DIR` naming what is wrong.
 */
export function openTranspileCache(home: string): TranspileCacheLocation {
  const dir = ensurePrivateDir(home, "cache", "transpile");
  try {
    return { dir, key: readOrCreateKey(join(home, "cache", "transpile.key")) };
  } catch (error) {
    throw new GatehouseError("GH_STATE_DIR", (error as Error).message, { cause: error });
  }
}
