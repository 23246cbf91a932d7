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
 */
export const ESM_GATE_HOOKS = `
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
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
  const gating = regs.filter((r) => inside(r.root, real) || r.linked.some((t) => inside(t, real)));
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
