import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { GatehouseError } from "../common/errors.ts";
import { parseJsonSource } from "../common/json-source.ts";
import { readRegularFile } from "../common/read-regular-file.ts";
import { osReason } from "../config/os-reason.ts";

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

/** A package folder's entry file, or why it has none, worded for the person who wrote its manifest. */
export type PackageEntry = { entry: string } | { problem: string };

/**
 * The entry file a package's manifest points at (exports ".", then main, then index.js).
 * Contract: never throws; an unreadable or malformed manifest, or an entry that does not exist, is a
 * `problem` naming the manifest (and, for bad JSON, its line and column).
 */
export function explainPackageEntry(packageDir: string): PackageEntry {
  const file = join(packageDir, "package.json");
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (error) {
    return { problem: `${file}: ${osReason(error)}` };
  }
  let manifest: { exports?: unknown; main?: unknown };
  try {
    // Parsed as Node parses it (a duplicate key is fine); the positioned parse only words a failure.
    manifest = (JSON.parse(text) ?? {}) as typeof manifest;
  } catch (error) {
    return { problem: jsonProblem(text, file, error) };
  }
  const target = exportEntry(manifest.exports) ?? (typeof manifest.main === "string" ? manifest.main : "index.js");
  const entry = join(packageDir, target);
  return existsSync(entry) ? { entry } : { problem: `${file}: its entry ${target} does not exist` };
}

/** `file:line:column: <found> — expected <expected>` for text that JSON.parse rejected. */
function jsonProblem(text: string, file: string, error: unknown): string {
  try {
    parseJsonSource(text, file);
  } catch (positioned) {
    if (positioned instanceof GatehouseError) return positioned.message;
  }
  return `${file}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The entry file a package's manifest points at (exports ".", then main, then index.js). */
export function packageEntry(packageDir: string): string | undefined {
  const found = explainPackageEntry(packageDir);
  return "entry" in found ? found.entry : undefined;
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
