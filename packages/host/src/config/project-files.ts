import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { readRegularFile } from "../common/read-regular-file.ts";

/**
 * The key of a project in the trust store: its real path (symlinks resolved), or its resolved path
 * once it no longer exists, so the trust of a deleted project can still be revoked.
 */
export function projectRealPath(projectDir: string): string {
  return realpathOr(resolve(projectDir));
}

/**
 * The sha256 (hex) of each file's bytes, by its `/`-separated path relative to the project.
 * Contract: a file that cannot be read maps to the Error instead of throwing (errors are data; the
 * caller decides). A file may be named under the project path as given or under its real path;
 * a file outside the project keeps a `../` path relative to the real project path. Relative inputs
 * resolve against `projectDir`. Duplicate files are hashed once.
 */
export function digestProjectFiles(projectDir: string, files: readonly string[]): Map<string, string | Error> {
  const bases = [resolve(projectDir), projectRealPath(projectDir)];
  const digests = new Map<string, string | Error>();
  for (const file of files) {
    const absolute = resolve(projectDir, file);
    const key = relativeKey(bases, absolute);
    if (!digests.has(key)) digests.set(key, digestFile(absolute));
  }
  return digests;
}

function digestFile(file: string): string | Error {
  try {
    return createHash("sha256").update(readRegularFile(file)).digest("hex");
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function relativeKey(bases: readonly string[], file: string): string {
  const inside = bases.map((base) => relative(base, file)).find((rel) => !isOutside(rel));
  const key = inside ?? relative(bases[1] as string, realpathOr(file));
  return key.split(sep).join("/");
}

function isOutside(rel: string): boolean {
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
