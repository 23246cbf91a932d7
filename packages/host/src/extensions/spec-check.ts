import { isAbsolute, normalize, sep } from "node:path";

export { isPathSpec } from "../config/extension-specs.ts";

/**
 * Why a package spec is refused, or `undefined` when it is a plain package name with an optional
 * subpath (`pkg`, `@scope/pkg`, `pkg/sub/entry.js`).
 * Why: a package spec is resolved by the host's own resolution when the project has no copy, so
 * `pkg/../../project/payload.mjs` would reach any file while looking like a package; URLs
 * (`file:`, `data:`, `node:`) and backslashes are refused for the same reason.
 */
export function packageSpecProblem(spec: string): string | undefined {
  if (/[\\\0]/.test(spec) || /\s/.test(spec)) return "a package name has no backslashes, spaces or control characters";
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec)) return "URLs are not extension specs; list a package name or a path";
  const segments = spec.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return 'a package name cannot contain "..", "." or empty segments (list the file as a path inside the project instead)';
  }
  if (spec.startsWith("@") && segments.length < 2) return "a scoped package name is @scope/name";
  return undefined;
}

/**
 * Why a relative path spec is refused, or `undefined`: one whose `..` segments climb out of the
 * folder it is relative to (the settings file's project, home or managed folder) is refused, so a
 * settings file cannot reach code outside its own tree by spelling.
 */
export function pathSpecProblem(spec: string): string | undefined {
  if (spec.includes("\0")) return "a path cannot contain NUL";
  if (isAbsolute(spec) || spec.startsWith("~")) return undefined;
  const normalized = normalize(spec);
  if (normalized === ".." || normalized.startsWith(`..${sep}`)) {
    return 'its ".." segments leave the folder it is relative to';
  }
  return undefined;
}
