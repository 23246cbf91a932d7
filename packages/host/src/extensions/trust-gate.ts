import { createHash } from "node:crypto";
import { Module } from "node:module";
import { basename, dirname, extname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { GatehouseError } from "../common/errors.ts";
import { readRegularFile } from "../common/read-regular-file.ts";
import { realOr } from "../common/real-or.ts";
import { hostInstallRoots, isInside } from "./code-origin.ts";
import { type EsmGateState, installEsmGate, publishEsmGate } from "./esm-gate.ts";
import { linkEscape } from "./link-escape.ts";
import { packageTypeOf } from "./package-type.ts";
import { gateFork, installWorkerGate } from "./worker-gate.ts";

/** What trust approved for one project: file real path → sha256, or everything (`--trust`). */
export type Approval = ReadonlyMap<string, string> | "all";

interface Registration {
  /** The project's real path: every file below it is gated. */
  readonly root: string;
  /** Files and folders outside the project a link inside it leads to: gated like project files. */
  readonly linked: Set<string>;
  /** The command that trusts the project again, for messages. */
  readonly retrust: string;
  approval: Approval;
}

/** One host's registration with the gate; `update` follows trust changes, `close` ends it. */
export interface GateRegistration {
  update(approval: Approval): void;
  /** Gates these files too: code outside the project that a link inside it leads to. */
  link(files: Iterable<string>): void;
  close(): void;
}

const registrations = new Set<Registration>();
/** The content each gated module was admitted with, by the file name it was loaded under. */
const admitted = new Map<string, string>();

/** The registrations as the ES module hooks decide with them (esm-gate.ts). */
function esmState(): EsmGateState {
  return {
    hostRoots: [...hostInstallRoots()],
    regs: [...registrations].map((r) => ({
      root: r.root,
      linked: [...r.linked],
      retrust: r.retrust,
      all: r.approval === "all",
      approval: r.approval === "all" ? {} : Object.fromEntries(r.approval),
    })),
  };
}

/**
 * Puts Node's own ES module loader behind the gate too (once per process): called before code
 * that is not Gatehouse's own runs, since such code may `import()` a project file natively (from
 * CommonJS Node compiled itself, or through `new Function`), which neither jiti nor the CommonJS
 * hook sees.
 */
export function armNativeGate(): void {
  installEsmGate(esmState);
  gateFork();
}

function isLinked(reg: Registration, real: string): boolean {
  for (const target of reg.linked) if (isInside(target, real)) return true;
  return false;
}

/**
 * The registrations that gate `file`: those it lies in (by its real path), whose recorded links
 * lead to it, or in which it is spelled while its real path is elsewhere — a link made inside the
 * project after trust gates what it leads to even when no import noted that link first.
 */
function gatedRegistrations(file: string): { real: string; regs: Registration[] } | undefined {
  if (registrations.size === 0) return undefined;
  const real = realOr(file);
  const spellings = real === file ? [file] : [file, join(realOr(dirname(file)), basename(file))];
  const regs = [...registrations].filter(
    (r) => isInside(r.root, real) || isLinked(r, real) || spellings.some((s) => isInside(r.root, s) || isLinked(r, s)),
  );
  if (regs.length === 0 || hostInstallRoots().some((root) => isInside(root, real))) return undefined;
  return { real, regs };
}

/**
 * Registers a project with the trust gate: from now on, no file under `root` runs through the
 * extension loader (or Node's CommonJS loader) unless its content is what trust approved.
 * Contract: several hosts may register the same project; a file passes if any live registration
 * approves its current content. `close` removes this host's approval.
 */
export function registerProjectGate(options: { root: string; retrust: string; approval: Approval }): GateRegistration {
  installCommonJsGate();
  const registration: Registration = {
    root: realOr(options.root),
    linked: new Set(),
    retrust: options.retrust,
    approval: options.approval,
  };
  registrations.add(registration);
  publishEsmGate();
  return {
    update(approval) {
      registration.approval = approval;
      publishEsmGate();
    },
    link(files) {
      for (const file of files) registration.linked.add(realOr(file));
      publishEsmGate();
    },
    close() {
      registrations.delete(registration);
      publishEsmGate();
    },
  };
}

/** True when `file` is project code of a registered project (it would be gated). */
export function isGated(file: string): boolean {
  return gatedRegistrations(file) !== undefined;
}

/**
 * The gate: checks the exact bytes about to run (or be parsed) against what trust approved.
 * Contract: a file outside every registered project, or inside the host's own installation,
 * passes; any other file passes only if a registration approves everything or records this
 * content's sha256 for its real path; otherwise this throws GatehouseError `GH_UNTRUSTED_CODE`
 * naming the file, why, and the command that trusts it. Returns true when the file was gated (its
 * code must then start with `withImportGuard`).
 */
export function gateProjectCode(file: string, content: string | Uint8Array): boolean {
  const gated = gatedRegistrations(file);
  if (!gated) return false;
  const { real, regs } = gated;
  const digest = createHash("sha256")
    .update(typeof content === "string" ? Buffer.from(content, "utf8") : content)
    .digest("hex");
  if (approves(regs, real, digest)) {
    admitted.set(file, digest);
    // Project code is about to run: from now on its native import() must be gated too.
    armNativeGate();
    return true;
  }
  const reg = regs[0] as Registration;
  const known = regs.some((r) => (r.approval as ReadonlyMap<string, string>).has(real));
  const why = known
    ? "it was edited after trust was granted"
    : "it is not part of the code trust was granted for (only files an extension imports with a literal specifier are)";
  throw new GatehouseError(
    "GH_UNTRUSTED_CODE",
    `project file ${relative(reg.root, real) || real} is not trusted: ${why}; review it and run ${reg.retrust} (or pass --trust for one run)`,
  );
}

function approves(regs: readonly Registration[], real: string, digest: string): boolean {
  return regs.some((r) => r.approval === "all" || r.approval.get(real) === digest);
}

/**
 * The module-cache keys of gated modules whose admitted content the current registrations no longer
 * approve (trust was revoked or changed since they ran): a loader must drop them, or a cache hit
 * would run them without the gate.
 */
export function staleModules(keys: Iterable<string>): string[] {
  const stale: string[] = [];
  for (const key of keys) {
    const digest = admitted.get(key);
    if (digest === undefined) continue;
    const gated = gatedRegistrations(key);
    if (gated && !approves(gated.regs, gated.real, digest)) stale.push(key);
  }
  return stale;
}

/**
 * jiti's native `import()`, gated: a project file is never imported natively (Node would read it
 * again and load its imports unchecked), so jiti falls back to transpiling it through the gate.
 */
export function gatedNativeImport(id: string): Promise<unknown> {
  const file = id.startsWith("file:") ? fileURLToPath(id) : isAbsolute(id) ? id : undefined;
  if (file !== undefined && isGated(file)) {
    return Promise.reject(
      new GatehouseError("GH_UNTRUSTED_CODE", `project file ${file} is loaded only through the trust gate`),
    );
  }
  return import(id);
}

type RequireLike = ((id: string) => unknown) & { resolve?: (id: string) => string };

/**
 * Wraps the `require` (or jiti's `jitiImport`) of a gated module so every import it makes is
 * checked for links out of the project first: a file outside the project reached through a link
 * inside it is gated like a project file (trust must have recorded it), so a link created after
 * trust cannot smuggle code in. Other imports pass unchanged.
 */
function guardImports<F extends RequireLike>(original: F, parent: string, resolver: RequireLike = original): F {
  const check = (spec: unknown) => {
    if (typeof spec !== "string" || typeof resolver.resolve !== "function") return;
    let resolved: string;
    try {
      resolved = resolver.resolve(spec);
    } catch {
      return;
    }
    noteLinks(spec, parent, resolved);
  };
  const guarded = function (this: unknown, spec: string, ...rest: unknown[]) {
    check(spec);
    return (original as (...args: unknown[]) => unknown).call(this, spec, ...rest);
  };
  for (const key of Object.getOwnPropertyNames(original)) {
    if (["length", "name", "prototype", "arguments", "caller"].includes(key)) continue;
    Object.defineProperty(guarded, key, Object.getOwnPropertyDescriptor(original, key) as PropertyDescriptor);
  }
  return guarded as unknown as F;
}

/**
 * Records a link out of a project that `spec`, imported from `parent`, passes through: its target is
 * gated from then on like project code (the loader then refuses it unless trust recorded it). An
 * absolute `spec` spelled inside a project counts whoever imports it.
 */
function noteLinks(spec: string, parent: string | undefined, resolved: string): void {
  const real = parent === undefined ? undefined : realOr(parent);
  for (const reg of registrations) {
    const from =
      real !== undefined && (isInside(reg.root, real) || isLinked(reg, real))
        ? real
        : isAbsolute(spec) && isInside(reg.root, spec)
          ? join(reg.root, "(importer)")
          : undefined;
    if (from === undefined) continue;
    const leak = linkEscape({ spec, parent: from, resolved, root: reg.root });
    if (leak && !reg.linked.has(leak.target)) {
      reg.linked.add(leak.target);
      publishEsmGate();
    }
  }
}

const GATE = Symbol.for("gatehouse.trust-gate");
(globalThis as Record<symbol, unknown>)[GATE] = { guardImports };

// Worker threads and forks are gated from the moment the host is loaded, before any module (pino's
// thread-stream, a dependency) takes its own reference to `Worker`; they refuse nothing until a
// project is registered.
installWorkerGate({ isGated, active: () => registrations.size > 0 });

/**
 * The line a gated module's code starts with (after its "use strict"): its `require` and
 * `jitiImport` are wrapped by `guardImports`.
 */
export const GUARD_PRELUDE =
  'var __ghGate = globalThis[Symbol.for("gatehouse.trust-gate")]; require = __ghGate.guardImports(require, __filename); if (typeof jitiImport === "function") jitiImport = __ghGate.guardImports(jitiImport, __filename, require);';

/**
 * A transpiled gated module's code with the prelude that guards its imports: after its "use strict"
 * directive (the loader's transform always emits one) and on the same line, so line numbers stay.
 */
export function withImportGuard(code: string): string {
  const strict = /^(\s*(["'])use strict\2;?)/.exec(code);
  const at = strict ? strict[0].length : 0;
  return `${code.slice(0, at)}${GUARD_PRELUDE}${code.slice(at)}`;
}

/**
 * True when Node's `require` would load `file` as an ES module (`.mjs`, `.mts`, or `.js`/`.ts` in a
 * `"type": "module"` package): `require(esm)` runs its whole import graph through Node's ES module
 * loader synchronously, where no hook of this process sees it (Node 20 runs no customization hook
 * for it).
 */
function isNativeEsm(file: string): boolean {
  const ext = extname(file);
  if (ext === ".mjs" || ext === ".mts") return true;
  return (ext === ".js" || ext === ".ts") && packageTypeOf(file) === "module";
}

function addonRefused(file: string): GatehouseError {
  return new GatehouseError(
    "GH_UNTRUSTED_CODE",
    `project file ${file} is a native addon; trust cannot verify what it loads, so it never runs from a project`,
  );
}

function nativeModuleRefused(file: string): GatehouseError {
  return new GatehouseError(
    "GH_UNTRUSTED_CODE",
    `project file ${file} is an ES module or TypeScript required natively: Node would load it and its imports outside the trust gate, so it never runs that way (import it from the extension, which the loader checks)`,
  );
}

interface NativeModule {
  _compile(code: string, file: string, format?: string): void;
  exports: unknown;
  require(id: string): unknown;
}
type Loader = (module: NativeModule, file: string) => void;
let installed = false;

/**
 * Routes Node's CommonJS loader through the gate for project files, so code that requires a
 * project file natively (`createRequire`, a CommonJS dependency) is checked too. Other files load
 * exactly as before.
 */
function installCommonJsGate(): void {
  if (installed) return;
  installed = true;
  // Every CommonJS resolution (a `createRequire` of a project file, not only a gated module's own
  // `require`) notes a link out of a project before the loader sees the target's real path.
  const moduleStatics = Module as unknown as {
    _resolveFilename(request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]): string;
  };
  const resolveFilename = moduleStatics._resolveFilename;
  moduleStatics._resolveFilename = function gatedResolveFilename(request, parent, ...rest) {
    const resolved = resolveFilename.call(this, request, parent, ...rest);
    if (registrations.size > 0 && typeof request === "string" && typeof resolved === "string") {
      noteLinks(request, parent?.filename ?? undefined, resolved);
    }
    return resolved;
  };
  const handlers = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const original = { ...handlers };
  const strip = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  // Node's other loaders (`.mjs` and, in newer Node, TypeScript) hand the file to its ES module
  // loader or a transform whose imports this hook never sees: project code never runs through them.
  for (const ext of Object.keys(handlers)) {
    if (ext === ".js" || ext === ".json" || ext === ".node") continue;
    handlers[ext] = function gatedOther(module, file) {
      if (!isGated(file)) return original[ext]?.call(this, module, file);
      throw nativeModuleRefused(file);
    };
  }
  handlers[".js"] = function gatedJs(module, file) {
    if (!isGated(file)) return original[".js"]?.call(this, module, file);
    if (isNativeEsm(file)) throw nativeModuleRefused(file);
    const bytes = readRegularFile(file);
    gateProjectCode(file, bytes);
    // Node's `require` inside the module calls `module.require`: guard that, the code stays as written.
    const own = module.require.bind(module);
    const resolve = (id: string) =>
      (Module as unknown as { _resolveFilename(id: string, parent: unknown): string })._resolveFilename(id, module);
    module.require = guardImports(
      Object.assign((id: string) => own(id), { resolve }),
      file,
    );
    // "commonjs": never detected as an ES module (Node would load that and its imports unchecked).
    module._compile(strip(bytes.toString("utf8")), file, "commonjs");
  };
  handlers[".json"] = function gatedJson(module, file) {
    if (!isGated(file)) return original[".json"]?.call(this, module, file);
    const bytes = readRegularFile(file);
    gateProjectCode(file, bytes);
    try {
      module.exports = JSON.parse(strip(bytes.toString("utf8")));
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
  };
  // `process.dlopen` is what the `.node` loader calls: code that calls it directly is refused the same.
  const dlopen = process.dlopen;
  process.dlopen = function gatedDlopen(this: unknown, module: unknown, file: string, ...rest: unknown[]) {
    if (typeof file === "string" && isGated(file.startsWith("file:") ? fileURLToPath(file) : file)) {
      throw addonRefused(file);
    }
    return (dlopen as (...args: unknown[]) => void).call(this, module, file, ...rest);
  } as typeof process.dlopen;
  handlers[".node"] = function gatedAddon(module, file) {
    if (!isGated(file)) return original[".node"]?.call(this, module, file);
    throw addonRefused(file);
  };
}
