import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

let cached: string | null | undefined;

/**
 * The version of the `@gatehouse/sdk` package this plugin runs against (the Gatehouse release).
 * Contract: never throws; `undefined` when it cannot be found. Read once per process.
 */
export function gatehouseVersion(): string | undefined {
  if (cached === undefined) cached = lookup();
  return cached ?? undefined;
}

function lookup(): string | null {
  try {
    let dir = path.dirname(createRequire(import.meta.url).resolve("@gatehouse/sdk"));
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
          name?: unknown;
          version?: unknown;
        };
        if (pkg.name === "@gatehouse/sdk") return typeof pkg.version === "string" ? pkg.version : null;
      } catch {
        // no package.json here: keep walking up
      }
      const parent = path.dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  } catch {
    return null;
  }
}
