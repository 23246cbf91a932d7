import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, isAbsolute, join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Jiti, JitiOptions } from "jiti";
import { errorMessage } from "../common/errors.ts";
import { realOr } from "../common/real-or.ts";
import { hostInstallRoots, isInside } from "./code-origin.ts";
import { packageTypeOf } from "./package-type.ts";
import { createFastTransform, transformVersion } from "./sucrase-transform.mjs";
import { createCachedTransform } from "./transpile-cache.mjs";
import { openTranspileCache, type TranspileCacheLocation } from "./transpile-cache-dir.ts";
import {
  armNativeGate,
  gatedNativeImport,
  gateProjectCode,
  isGated,
  staleModules,
  withImportGuard,
} from "./trust-gate.ts";

const hostRequire = createRequire(import.meta.url);

/**
 * The host's own copies of the modules an extension may import with nothing installed next to
 * it. zod points at its ESM entry and is imported natively, so extensions share the very zod
 * instance the host runs on (the CommonJS build would be a second copy: slower to load, and its
 * schemas would not be the host's).
 */
let aliases: Record<string, string> | undefined;
function hostAliases(): Record<string, string> {
  if (aliases) return aliases;
  const zodDir = dirname(hostRequire.resolve("zod/package.json"));
  aliases = {
    "@gatehouse/sdk": hostRequire.resolve("@gatehouse/sdk"),
    zod: join(zodDir, "index.js"),
    "zod/v4": join(zodDir, "v4", "index.js"),
  };
  return aliases;
}

type Transform = NonNullable<JitiOptions["transform"]>;
type JitiFactory = (
  id: string,
  options: JitiOptions,
  context: {
    onError: (error: unknown) => never;
    nativeImport: (id: string) => Promise<unknown>;
    createRequire: typeof createRequire;
  },
) => Jiti;

/**
 * jiti's own factory, which takes the function it imports natively with. Why not `createJiti`: it
 * hard-wires `import()`, and a natively imported project file would run (and load its imports)
 * without passing the trust gate. Pinned with jiti's exact version in package.json.
 */
function jitiFactory(): JitiFactory {
  const factory = hostRequire(join(dirname(hostRequire.resolve("jiti/package.json")), "dist", "jiti.cjs")) as unknown;
  if (typeof factory !== "function") throw new Error("jiti's factory (dist/jiti.cjs) is not a function: jiti changed");
  return factory as JitiFactory;
}

const BASE_OPTIONS: JitiOptions = {
  nativeModules: ["zod"],
  moduleCache: true,
  // jiti's own cache would skip the transform (and so the gate) on a hit: the cache is ours.
  fsCache: false,
  interopDefault: true,
};

/**
 * jiti's `createJiti`, loaded at first use: most starts load only built `.js` extensions, which
 * never need it (see `importsNatively`), and loading jiti costs about as much as Node's own start.
 */
function createJiti(id: string, options: JitiOptions): Jiti {
  return (hostRequire("jiti") as typeof import("jiti")).createJiti(id, options);
}

let babel: Jiti | undefined;
const loaders = new Map<string, Jiti>();
const caches = new Map<string, TranspileCacheLocation>();

/** A home's transpile cache, opened (and checked) once per process. */
function cacheFor(home: string): TranspileCacheLocation {
  let cache = caches.get(home);
  if (!cache) {
    cache = openTranspileCache(home);
    caches.set(home, cache);
  }
  return cache;
}

/** sucrase, with jiti's Babel as the fallback for files sucrase cannot handle. */
function fastTransform(): Transform {
  babel ??= createJiti(import.meta.url, { ...BASE_OPTIONS });
  const fallback = babel;
  return createFastTransform((input) => ({ code: fallback.transform(input as never) }));
}

/**
 * The loader of one Gatehouse home: every module it evaluates passes the trust gate first (the
 * exact source about to run), then the home's MAC-ed transpile cache.
 */
function loaderFor(home: string): Jiti {
  const existing = loaders.get(home);
  if (existing) return existing;
  const { dir, key } = cacheFor(home);
  const cached = createCachedTransform({ transform: fastTransform(), dir, key, version: transformVersion() });
  const transform: Transform = (input) => {
    const gated = input.filename !== undefined && gateProjectCode(input.filename, input.source);
    const output = cached(input);
    return gated ? { ...output, code: withImportGuard(output.code) } : output;
  };
  const loader = jitiFactory()(
    import.meta.url,
    { ...BASE_OPTIONS, alias: hostAliases(), transform },
    {
      onError: (error) => {
        throw error;
      },
      nativeImport: gatedNativeImport,
      createRequire,
    },
  );
  loaders.set(home, loader);
  return loader;
}

/** A loaded module's default export, or why it could not be loaded. */
export type LoadedModule = { ok: true; exported: unknown } | { ok: false; error: string };

/**
 * Imports an extension module from source (TypeScript or JavaScript), without a build step.
 * Contract: never throws; a syntax error, a throw at import time, an untrusted project file or an
 * unusable Gatehouse home comes back as `{ ok: false }` with the cause. `fresh` drops cached copies
 * of the extension's own files under `root` and of every project file first (never other
 * node_modules), so an edited file and the helpers it imports are read, and gated, again.
 */
export async function loadModule(
  file: string,
  options: { home: string; fresh?: boolean; root?: string },
): Promise<LoadedModule> {
  if (options.fresh) forget(options.root ?? file);
  for (const key of staleModules(Object.keys(hostRequire.cache))) delete hostRequire.cache[key];
  try {
    // The home is checked either way: an unusable one fails every load, as the contract says.
    cacheFor(options.home);
    // A FIFO or device in an entry's place would block the loader's read for ever.
    if (!statSync(file).isFile()) throw new Error(`${file} is not a regular file`);
    // Code that is not Gatehouse's own may import project files natively: gate Node's ESM loader first.
    if (!isHostCode(file)) armNativeGate();
    const mod = (importsNatively(file) ? await nativeImport(file) : await loaderFor(options.home).import(file)) as
      | { default?: unknown }
      | undefined;
    const exported = mod && typeof mod === "object" && "default" in mod ? mod.default : mod;
    return { ok: true, exported };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** True when `file` lies in Gatehouse's own installation (the host, the first-party plugins). */
function isHostCode(file: string): boolean {
  const real = realOr(file);
  return hostInstallRoots().some((root) => isInside(root, real));
}

/**
 * True when the loader would hand `file` to Node's own `import()` anyway: an ES module file
 * (`.mjs`, or `.js` in a `"type": "module"` package) that the trust gate does not cover (outside
 * every registered project, or inside the host's installation: the first-party plugins). Importing
 * it directly skips loading jiti. Anything else (TypeScript, CommonJS, project code, however spelled)
 * goes through jiti and the gate as before.
 */
function importsNatively(file: string): boolean {
  if (!isAbsolute(file) || isGated(file)) return false;
  const ext = extname(file);
  return ext === ".mjs" || (ext === ".js" && packageTypeOf(file) === "module");
}

/** True for an ES module namespace object (what Node's `import()` resolves with). */
function isNamespace(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object Module]";
}

/** Node's `import()` of an absolute file, as a module whose `default` is what jiti's default interop gives. */
async function nativeImport(file: string): Promise<unknown> {
  let mod = (await gatedNativeImport(pathToFileURL(file).href)) as Record<string, unknown>;
  // A host that itself runs under jiti (a script loading its sources, as the bench does) gets
  // `import()` through jiti, which hands back `{ default: namespace }`: Node's own answer is the
  // namespace itself, so a namespace inside something that is not one is unwrapped.
  if (!isNamespace(mod) && isNamespace(mod.default)) mod = mod.default as Record<string, unknown>;
  if (!("default" in mod)) return mod;
  const inner = mod.default as { default?: unknown } | null | undefined;
  if (inner === null || inner === undefined) return { default: mod };
  return { default: typeof inner.default === "function" && mod.__esModule ? inner.default : inner };
}

/**
 * Where `spec`, required from `from`, resolves, exactly as the loader would resolve it (for the
 * import graph trust hashes); `undefined` when it does not resolve or is not a file (a builtin, or
 * a module the host provides natively).
 */
export function resolveLikeLoader(spec: string, from: string): string | undefined {
  try {
    const nested = createJiti(from, { ...BASE_OPTIONS, alias: hostAliases() });
    const resolved = nested.resolve(spec);
    return typeof resolved === "string" && isAbsolute(resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** The code the loader would run for a module source (for finding its imports); not cached. */
export function transpileForScan(source: string, filename: string): string {
  const ts = /\.[cm]?tsx?$/.test(filename);
  return fastTransform()({ source, filename, ts }).code;
}

/**
 * Drops module cache entries of files at or under `root` (except dependencies in node_modules)
 * and of every gated project file.
 */
export function forget(root: string): void {
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (const key of Object.keys(hostRequire.cache)) {
    const own = (key === root || key.startsWith(prefix)) && !key.includes(`${sep}node_modules${sep}`);
    if (own || isGated(key)) delete hostRequire.cache[key];
  }
}
