import { fileURLToPath } from "node:url";

/** A `file:` URL, however its scheme is cased. */
const FILE_URL = /^file:/i;

/**
 * The local path a `file:` URL names: what a tool that takes "a path or a file URL" opens when a
 * model hands it `file:///work/%2Eenv`. `null` for a `file:` URL that names no local file (another
 * host, an escaped `/` or NUL); `undefined` for anything that is not a `file:` URL.
 * Contract: never throws.
 */
export function fileUrlTarget(value: unknown): string | null | undefined {
  if (typeof value !== "string" || !FILE_URL.test(value)) return undefined;
  try {
    return fileURLToPath(value);
  } catch {
    return null;
  }
}
