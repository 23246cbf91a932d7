import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { readRegularFile } from "../common/read-regular-file.ts";

function exportEntry(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (!exports || typeof exports !== "object") return undefined;
  const dot = "." in exports ? (exports as Record<string, unknown>)["."] : exports;
  if (typeof dot === "string") return dot;
  if (dot && typeof dot === "object") {
    for (const condition of ["import", "node", "require", "default"]) {
      const target = exportEntry((dot as Record<string, unknown>)[condition]);
      if (target) return target;
    }
  }
  return undefined;
}

/** The entry file a package's manifest points at (exports ".", then main, then index.js). */
export function packageEntry(packageDir: string): string | undefined {
  try {
    const manifest = JSON.parse(readRegularFile(join(packageDir, "package.json"), "utf8")) as {
      exports?: unknown;
      main?: unknown;
    };
    const target = exportEntry(manifest.exports) ?? (typeof manifest.main === "string" ? manifest.main : "index.js");
    const entry = join(packageDir, target);
    return existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds a package the way Node does from a project directory: `node_modules/<name>` in the
 * directory and each of its ancestors, or only in `dir` itself when `ancestors` is false. Written
 * out by hand (not createRequire) so that what counts as "from the project" never depends on the
 * loader the host itself runs under.
 */
export function resolvePackageFrom(
  dir: string,
  name: string,
  options: { ancestors?: boolean } = {},
): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return packageEntry(candidate);
    if (options.ancestors === false || dirname(current) === current) return undefined;
  }
}
