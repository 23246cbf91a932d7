import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { Module } from "node:module";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { GatehouseError } from "../common/errors.ts";
import { hostInstallRoots, isInside } from "./code-origin.ts";

/** What trust approved for one project: file real path → sha256, or everything (`--trust`). */
export type Approval = ReadonlyMap<string, string> | "all";

interface Registration {
  /** The project's real path: every file below it is gated. */
  readonly root: string;
  /** The command that trusts the project again, for messages. */
  readonly retrust: string;
  approval: Approval;
}

/** One host's registration with the gate; `update` follows trust changes, `close` ends it. */
export interface GateRegistration {
  update(approval: Approval): void;
  close(): void;
}

const registrations = new Set<Registration>();
/** The content each gated module was admitted with, by the file name it was loaded under. */
const admitted = new Map<string, string>();

function realOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function gatedRegistrations(file: string): { real: string; regs: Registration[] } | undefined {
  if (registrations.size === 0) return undefined;
  const real = realOr(file);
  const regs = [...registrations].filter((r) => isInside(r.root, real));
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
    retrust: options.retrust,
    approval: options.approval,
  };
  registrations.add(registration);
  return {
    update(approval) {
      registration.approval = approval;
    },
    close() {
      registrations.delete(registration);
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
 * naming the file, why, and the command that trusts it.
 */
export function gateProjectCode(file: string, content: string | Uint8Array): void {
  const gated = gatedRegistrations(file);
  if (!gated) return;
  const { real, regs } = gated;
  const digest = createHash("sha256")
    .update(typeof content === "string" ? Buffer.from(content, "utf8") : content)
    .digest("hex");
  if (approves(regs, real, digest)) {
    admitted.set(file, digest);
    return;
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

type Loader = (module: { _compile(code: string, file: string): void; exports: unknown }, file: string) => void;
let installed = false;

/**
 * Routes Node's CommonJS loader through the gate for project files, so code that requires a
 * project file natively (`createRequire`, a CommonJS dependency) is checked too. Other files load
 * exactly as before.
 */
function installCommonJsGate(): void {
  if (installed) return;
  installed = true;
  const handlers = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const original = { ...handlers };
  const strip = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  handlers[".js"] = function gatedJs(module, file) {
    if (!isGated(file)) return original[".js"]?.call(this, module, file);
    const bytes = readFileSync(file);
    gateProjectCode(file, bytes);
    module._compile(strip(bytes.toString("utf8")), file);
  };
  handlers[".json"] = function gatedJson(module, file) {
    if (!isGated(file)) return original[".json"]?.call(this, module, file);
    const bytes = readFileSync(file);
    gateProjectCode(file, bytes);
    try {
      module.exports = JSON.parse(strip(bytes.toString("utf8")));
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
  };
  handlers[".node"] = function gatedAddon(module, file) {
    if (!isGated(file)) return original[".node"]?.call(this, module, file);
    throw new GatehouseError(
      "GH_UNTRUSTED_CODE",
      `project file ${file} is a native addon; trust cannot verify what it loads, so it never runs from a project`,
    );
  };
}
