import type * as ChildProcess from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type * as WorkerThreads from "node:worker_threads";
import { GatehouseError } from "../common/errors.ts";

/** What the worker gate decides with: the trust gate's own view of which files are project code. */
export interface WorkerGateOptions {
  /**
   * True when `file` is project code: its real path is gated, or it is spelled inside a project (a
   * link there to a file outside, made after trust, leads to code no one approved).
   */
  isGated(file: string): boolean;
  /** True while at least one project is registered with the trust gate. */
  active(): boolean;
}

/** The file an entry (path string, `file:` URL string or URL object) names, or a non-file URL's protocol. */
function entryOf(entry: unknown, cwd: string): { file: string } | { protocol: string } | undefined {
  if (entry instanceof URL) {
    return entry.protocol === "file:" ? { file: fileURLToPath(entry) } : { protocol: entry.protocol };
  }
  if (typeof entry !== "string") return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(entry) && !isAbsolute(entry)) {
    const url = new URL(entry);
    return url.protocol === "file:" ? { file: fileURLToPath(url) } : { protocol: url.protocol };
  }
  return { file: resolve(cwd, entry) };
}

/** File names Node (or a transform) would load as code. */
const CODE = /\.(?:[cm]?[jt]s|[jt]sx|node)$/i;

/**
 * Strings in a worker's `workerData` or `argv` that name a gated file: a worker script outside the
 * project (a dependency's, e.g. a logging transport's) that loads the file it is handed would run it
 * on a thread no gate reaches. Best effort: module file names in plain data, a bounded walk.
 */
function gatedPathIn(value: unknown, gated: (file: string) => boolean, depth = 0, seen = { n: 0 }): string | undefined {
  if (depth > 4 || seen.n > 200) return undefined;
  seen.n += 1;
  if (typeof value === "string") {
    let file: string | undefined;
    if (value.startsWith("file:")) {
      try {
        file = fileURLToPath(value);
      } catch {
        return undefined;
      }
    } else if (isAbsolute(value)) file = value;
    // Only module files: a log file or data path in the project is not code the worker could run.
    return file !== undefined && CODE.test(file) && gated(file) ? file : undefined;
  }
  if (value instanceof URL) return gatedPathIn(value.href, gated, depth + 1, seen);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = gatedPathIn(item, gated, depth + 1, seen);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const item of Object.values(value)) {
      const found = gatedPathIn(item, gated, depth + 1, seen);
      if (found) return found;
    }
  }
  return undefined;
}

/** Node flags with their values split off (`--require=/x.js` → `/x.js` too): what a preload names. */
function flagValues(execArgv: unknown): string[] {
  if (!Array.isArray(execArgv)) return [];
  return execArgv.flatMap((flag) => (typeof flag === "string" ? [flag, flag.slice(flag.indexOf("=") + 1)] : []));
}

function refused(what: string): GatehouseError {
  return new GatehouseError(
    "GH_UNTRUSTED_CODE",
    `${what}: a worker thread or forked process runs outside the trust gate (Node gives it no loader hooks of this process), so project code never starts one`,
  );
}

let installed = false;

/**
 * Puts worker threads behind the trust gate, once per process (as early as possible: a module that
 * took its own reference to `Worker` before this ran is not covered; `fork` follows in `gateFork`): Node runs a
 * worker's modules on a thread the gate's CommonJS hook and ES module hooks do not reach (Node 20
 * passes no `module.register` hooks to workers), and a forked process has no gate at all, so a
 * project file started that way would run unchecked.
 * Contract: while a project is registered, `new Worker(entry)` throws GatehouseError
 * `GH_UNTRUSTED_CODE` when the entry (path, `file:` URL string or URL object) is project code, when
 * its `workerData`, `argv` or `execArgv` names a project module, and for `eval: true`, `data:` and
 * `blob:` entries (code that may import project files with no gate). "Project code" is what
 * `options.isGated` says (the trust gate counts a path spelled inside a project too). Other workers
 * (Gatehouse's own, its dependencies' such as pino's transports) start as before. `require("node:worker_threads").Worker` and the ES module named export are
 * both replaced.
 */
export function installWorkerGate(options: WorkerGateOptions): void {
  if (installed) return;
  installed = true;
  const { isGated, active } = options;
  // The builtins' own export objects (a default or namespace import may be a frozen ES module
  // namespace, e.g. when the host runs under jiti): replaced there, then synced to the named exports.
  const builtin = createRequire(import.meta.url);
  const workerThreads = builtin("node:worker_threads") as typeof WorkerThreads;
  const gated = isGated;
  const Original = workerThreads.Worker;

  class GatedWorker extends Original {
    constructor(entry: string | URL, workerOptions?: WorkerThreads.WorkerOptions) {
      if (active()) {
        if (workerOptions?.eval) throw refused("an eval worker (new Worker(code, { eval: true }))");
        const target = entryOf(entry, process.cwd());
        if (target && "protocol" in target) throw refused(`a worker from a ${target.protocol} URL`);
        if (target && gated(target.file)) throw refused(`project file ${target.file} was started as a worker`);
        const handed = gatedPathIn(
          [workerOptions?.workerData, workerOptions?.argv, flagValues(workerOptions?.execArgv)],
          gated,
        );
        if (handed) throw refused(`project file ${handed} was handed to a worker`);
      }
      super(entry, workerOptions);
    }
  }
  Object.defineProperty(GatedWorker, "name", { value: "Worker" });
  // A worker made through a reference taken before this ran is still a `Worker`.
  Object.defineProperty(GatedWorker, Symbol.hasInstance, { value: (value: unknown) => value instanceof Original });
  workerThreads.Worker = GatedWorker;

  syncBuiltinESMExports();
  gate = options;
}

let gate: WorkerGateOptions | undefined;
let forkGated = false;

/**
 * Puts `child_process.fork` behind the same gate (see `installWorkerGate`), once per process.
 * Why apart and later: loading `node:child_process` costs ~3 ms of every start, and Gatehouse
 * itself loads it only when a command runs; the trust gate calls this before code that is not
 * Gatehouse's own first runs (`armNativeGate`), which is before anything that could fork a project
 * file (no dependency of Gatehouse forks).
 * Contract: a no-op before `installWorkerGate`; afterwards `fork(modulePath)` throws GatehouseError
 * `GH_UNTRUSTED_CODE` while a project is registered when `modulePath` is project code or its
 * arguments name a project module; the ES module named export is replaced too.
 */
export function gateFork(): void {
  if (forkGated || !gate) return;
  forkGated = true;
  const { isGated, active } = gate;
  const gated = isGated;
  const childProcess = createRequire(import.meta.url)("node:child_process") as typeof ChildProcess;
  const originalFork = childProcess.fork;
  const gatedFork = function fork(this: unknown, modulePath: string | URL, ...rest: unknown[]) {
    if (active()) {
      const last = rest[rest.length - 1];
      const forkOptions = last && typeof last === "object" && !Array.isArray(last) ? (last as { cwd?: unknown }) : {};
      const cwd =
        typeof forkOptions.cwd === "string"
          ? forkOptions.cwd
          : forkOptions.cwd instanceof URL
            ? fileURLToPath(forkOptions.cwd)
            : process.cwd();
      const target = entryOf(modulePath, cwd);
      if (target && "file" in target && gated(target.file)) {
        throw refused(`project file ${target.file} was forked`);
      }
      const args = Array.isArray(rest[0]) ? rest[0] : [];
      const execArgv = (forkOptions as { execArgv?: unknown }).execArgv;
      const handed = gatedPathIn([args, flagValues(execArgv)], (file) => gated(resolve(cwd, file)));
      if (handed) throw refused(`project file ${handed} was handed to a forked process`);
    }
    return (originalFork as (...args: unknown[]) => unknown).call(this, modulePath, ...rest);
  } as typeof childProcess.fork;
  childProcess.fork = gatedFork;
  syncBuiltinESMExports();
}
