import path from "node:path";
import { joinRaw } from "./expand-home.ts";
import type { PolicyFs } from "./policy-fs.ts";
import { resolveReal } from "./resolve-real.ts";

/** One workspace root in both its spellings. */
export interface WorkspaceRoot {
  /** As configured. */
  given: string;
  /** Absolute and lexically normalised. */
  absolute: string;
  /** Through every symlink (the spelling real paths are compared with). */
  real: string;
}

/** Resolves configured roots: relative ones against `cwd`, `~` against `home`, then through symlinks. */
export function resolveRoots(
  given: readonly string[],
  options: { cwd: string; home: string; fs: PolicyFs },
): WorkspaceRoot[] {
  return given.map((root) => {
    const raw = joinRaw(root, { ...options, expandHome: true });
    return { given: root, absolute: path.resolve(raw), real: resolveReal(raw, options.fs).path };
  });
}

/** A `.` or `..` segment: a path holding one is not in normal form, so a prefix says nothing. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** An absolute path in normal form: no `.` or `..` segment, no empty one, no trailing separator. */
function isNormal(p: string): boolean {
  return p.startsWith("/") && !p.includes("//") && (p === "/" || !p.endsWith("/")) && !DOT_SEGMENT.test(p);
}

/**
 * The path of `target` relative to `root`, or `undefined` when it is not inside.
 * Contract: the answer of `path.relative` (a prefix counts only with a separator after it), so `/proj-evil` is not inside
 * `/proj`; the root itself gives "". Both arguments must be absolute.
 */
export function relativeInside(root: string, target: string): string | undefined {
  // Normal absolute paths (the resolver's): inside means equal, or the root and a separator prefix
  // the target, exactly what path.relative answers for them, without resolving either again.
  if (isNormal(root) && isNormal(target)) {
    if (target === root) return "";
    const prefix = root === "/" ? root : `${root}/`;
    return target.startsWith(prefix) ? target.slice(prefix.length) : undefined;
  }
  const rel = path.relative(root, target);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * True when `target` is `root` or below it. Normal absolute paths (what the resolver gives) are
 * inside when the root and a separator prefix them; anything else is decided by `relativeInside`.
 */
function isWithin(root: string, target: string): boolean {
  if (target === root) return true;
  const prefix = root.endsWith("/") ? root : `${root}/`;
  if (target.startsWith(prefix) && !DOT_SEGMENT.test(target) && !target.includes("//")) return true;
  return relativeInside(root, target) !== undefined;
}

/** True when `real` is one of the roots or inside one (exact comparison of real paths). */
export function insideWorkspace(roots: readonly WorkspaceRoot[], real: string): boolean {
  for (const root of roots) if (isWithin(root.real, real)) return true;
  return false;
}

/** True when `p` is a workspace root (either spelling) or an ancestor of one. */
export function containsRoot(roots: readonly WorkspaceRoot[], p: string): boolean {
  return roots.some(
    (root) => relativeInside(p, root.real) !== undefined || relativeInside(p, root.absolute) !== undefined,
  );
}
