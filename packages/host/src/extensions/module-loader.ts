import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { createJiti, type Jiti } from "jiti";
import { errorMessage } from "../common/errors.ts";
import { createFastTransform, TRANSFORM_CACHE_DIR } from "./sucrase-transform.mjs";

const hostRequire = createRequire(import.meta.url);

/**
 * The host's own copies of the modules an extension may import with nothing installed next to
 * it. zod points at its ESM entry and is imported natively, so extensions share the very zod
 * instance the host runs on (the CommonJS build would be a second copy: slower to load, and its
 * schemas would not be the host's).
 */
function hostAliases(): Record<string, string> {
  const zodDir = dirname(hostRequire.resolve("zod/package.json"));
  return {
    "@gatehouse/sdk": hostRequire.resolve("@gatehouse/sdk"),
    zod: join(zodDir, "index.js"),
    "zod/v4": join(zodDir, "v4", "index.js"),
  };
}

let shared: Jiti | undefined;

function jiti(): Jiti {
  if (shared) return shared;
  const options = {
    alias: hostAliases(),
    nativeModules: ["zod"],
    moduleCache: true,
    fsCache: TRANSFORM_CACHE_DIR,
    interopDefault: true,
  };
  // Babel (jiti's own transform) stays as the fallback for files sucrase cannot handle.
  const babel = createJiti(import.meta.url, options);
  shared = createJiti(import.meta.url, {
    ...options,
    transform: createFastTransform((input) => ({ code: babel.transform(input as never) })),
  });
  return shared;
}

/** A loaded module's default export, or why it could not be loaded. */
export type LoadedModule = { ok: true; exported: unknown } | { ok: false; error: string };

/**
 * Imports an extension module from source (TypeScript or JavaScript), without a build step.
 * Contract: never throws; a syntax error or a throw at import time comes back as `{ ok: false }`
 * with the cause. `fresh` drops cached copies of the extension's own files under `root` first
 * (never node_modules), so an edited file and the helpers it imports are read again.
 */
export async function loadModule(
  file: string,
  options: { fresh?: boolean; root?: string } = {},
): Promise<LoadedModule> {
  if (options.fresh) forget(options.root ?? file);
  try {
    const mod = (await jiti().import(file)) as { default?: unknown } | undefined;
    const exported = mod && typeof mod === "object" && "default" in mod ? mod.default : mod;
    return { ok: true, exported };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** Drops the module cache entries of files at or under `root`, except dependencies in node_modules. */
export function forget(root: string): void {
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (const key of Object.keys(hostRequire.cache)) {
    if ((key === root || key.startsWith(prefix)) && !key.includes(`${sep}node_modules${sep}`)) {
      delete hostRequire.cache[key];
    }
  }
}
