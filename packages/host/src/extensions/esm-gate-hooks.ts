/**
 * The source of the module customization hooks (`module.register`) that put Node's own ES module
 * loader behind the trust gate. Node runs them on a thread of its own, so they are a self-contained
 * module, registered from a `data:` URL (nothing on disk a project could replace).
 *
 * What they do: every `file:` module Node's ESM loader is about to load (an `import()` in natively
 * compiled CommonJS, `new Function("return import(x)")`, a static import of a natively imported
 * module, JSON imported with attributes) is checked when its real path lies in a registered project
 * (or behind a link out of it), outside Gatehouse's own installation: the bytes Node will evaluate
 * must hash to what trust recorded for that path, or the load throws before anything runs. The
 * registrations live on the main thread; it posts each new state on `port` and then bumps
 * `generation[0]`, so a hook that sees a newer generation takes the posted states synchronously
 * (`receiveMessageOnPort`) before it decides: a registration is in force for the very next import.
 * Everything else (Gatehouse's own modules, dependencies outside projects, builtins) goes straight
 * to Node's loader after one atomic read.
 *
 * Links: Node resolves links before `load` sees a URL, so a link inside a project to a file
 * outside every project (made after trust) would look like outside code. The `resolve` hook sees
 * the spelling first (a relative, absolute or `file:` specifier against its parent, or the nearest
 * `node_modules/<name>` for a bare one): when it lies inside a project (or a linked target) and the
 * resolved real path lies outside, the link's target is remembered for that project (on this
 * thread) and gated from then on like a link trust recorded: its bytes must be what trust approved
 * for that real path.
 */
export const ESM_GATE_HOOKS = `
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { receiveMessageOnPort } from "node:worker_threads";

let port;
let generation;
let applied = 0;
let state = { regs: [], hostRoots: [] };

export function initialize(data) {
  port = data.port;
  generation = new Int32Array(data.generation);
}

function current() {
  const wanted = Atomics.load(generation, 0);
  while (applied < wanted) {
    const received = receiveMessageOnPort(port);
    if (!received) throw new Error("Gatehouse's trust gate lost its state: no module is loaded");
    state = received.message.state;
    applied = received.message.generation;
  }
  return state;
}

function inside(outer, inner) {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

// Real paths outside every project that an import spelled inside one (or inside a linked target)
// reached through a link, by project root: gated like project code from then on.
const linkedByResolution = new Map();

function lexists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

// Where a bare specifier is looked up first: the nearest node_modules/<name> that exists.
function nearestPackage(specifier, from) {
  const parts = specifier.split("/");
  const name = (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (lexists(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

// The path an import names before Node resolves links: from the specifier's own spelling.
function spelled(specifier, parentURL, isProject) {
  try {
    if (specifier.startsWith("file:") || specifier.startsWith("/") || specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
      const url = new URL(specifier, parentURL);
      return url.protocol === "file:" ? fileURLToPath(url) : undefined;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(specifier) || specifier.startsWith("#") || parentURL === undefined || !parentURL.startsWith("file:")) return undefined;
    const from = dirname(fileURLToPath(parentURL));
    return isProject(from) ? nearestPackage(specifier, from) : undefined;
  } catch {
    return undefined;
  }
}

// The real path of the first link below base on the way to path (a linked folder covers all below it).
function linkTarget(base, path) {
  let current = base;
  for (const part of relative(base, path).split(sep)) {
    if (part === "") continue;
    current = join(current, part);
    try {
      if (lstatSync(current).isSymbolicLink()) return realOr(current);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function linkedTargets(reg) {
  return reg.linked.concat(linkedByResolution.get(reg.root) ?? []);
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (typeof result.url !== "string" || !result.url.startsWith("file:")) return result;
  const { regs, hostRoots } = current();
  if (regs.length === 0) return result;
  const isProject = (path) => regs.some((r) => inside(r.root, path) || linkedTargets(r).some((t) => inside(t, path)));
  const lexical = spelled(specifier, context.parentURL, isProject);
  if (lexical === undefined) return result;
  const real = realOr(fileURLToPath(result.url));
  if (hostRoots.some((root) => inside(root, real))) return result;
  for (const reg of regs) {
    const targets = linkedTargets(reg);
    if (inside(reg.root, real) || targets.some((t) => inside(t, real))) continue;
    const base = inside(reg.root, lexical) ? reg.root : targets.find((t) => inside(t, lexical));
    if (base === undefined) continue;
    const target = linkTarget(base, lexical) ?? real;
    const known = linkedByResolution.get(reg.root) ?? [];
    if (!known.includes(target)) linkedByResolution.set(reg.root, known.concat(target));
  }
  return result;
}

function realOr(file) {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:")) return nextLoad(url, context);
  const { regs, hostRoots } = current();
  if (regs.length === 0) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const real = realOr(file);
  const gating = regs.filter((r) => inside(r.root, real) || linkedTargets(r).some((t) => inside(t, real)));
  if (gating.length === 0 || hostRoots.some((root) => inside(root, real))) return nextLoad(url, context);
  const result = await nextLoad(url, context);
  // CommonJS comes back without source: Node's CommonJS loader reads it, and checks it again there.
  const bytes = result.source == null ? readFileSync(file) : Buffer.from(result.source);
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (gating.some((r) => r.all || r.approval[real] === digest)) return result;
  const reg = gating[0];
  const known = gating.some((r) => !r.all && Object.hasOwn(r.approval, real));
  const why = known
    ? "it was edited after trust was granted"
    : "it is not part of the code trust was granted for (only files an extension imports with a literal specifier are)";
  const shown = inside(reg.root, real) ? relative(reg.root, real) || real : real;
  const error = new Error(
    "project file " + shown + " is not trusted: " + why + "; review it and run " + reg.retrust + " (or pass --trust for one run)",
  );
  error.code = "GH_UNTRUSTED_CODE";
  throw error;
}
`;
