import { createRequire } from "node:module";
import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { insideWorkspace, realish } from "./audit-location.ts";

const here = import.meta.url;

/**
 * The file a `ship.target` names, resolved as pino would from this package (absolute paths and
 * `file:` URLs as they are), so the sink hands pino exactly the file that was checked.
 * Contract: an unresolvable target is returned as given (pino reports it; a transport failure
 * is never fatal); throws naming `config.tool-audit.ship.target` when its real file lies inside
 * the project: a transport is code that runs in every run, and the
 * project's own files are code trust has not approved (a repository could otherwise run anything
 * by naming a file of its own in its settings).
 */
export function resolveShipTarget(target: string, projectDir: string): string {
  let file: string;
  try {
    if (target.startsWith("file:")) file = fileURLToPath(target);
    else if (isAbsolute(target)) file = target;
    else if (target === "pino/file") return target;
    else file = createRequire(here).resolve(target);
  } catch {
    // pino resolves from this package too and will fail the same way: reported, never fatal.
    return target;
  }
  const real = realish(file);
  if (insideWorkspace(file, projectDir)) {
    throw new Error(
      `config.tool-audit.ship.target ${JSON.stringify(target)} is ${real}, inside the project ${projectDir}: a transport runs code in every run and the project's own files are not trusted for that; install the transport outside the project (next to Gatehouse)`,
    );
  }
  return real;
}
