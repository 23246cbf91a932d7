import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * Resolves a configured root the way the kernel would walk it: `~` and `~/x` against `home`,
 * relative paths against `cwd`, then component by component, so `..` after a symbolic link goes up
 * from where the link points, not from where it sits. The part that does not exist yet is appended
 * as written (with `..` applied lexically).
 * Contract: returns an absolute real path, or `undefined` for a value that is not a non-empty string
 * or that passes through a dangling symbolic link (where it leads cannot be checked).
 */
export function resolveRoot(root: unknown, options: { cwd: string; home: string }): string | undefined {
  if (typeof root !== "string" || root.length === 0 || root.includes("\0")) return undefined;
  const raw =
    root === "~"
      ? options.home
      : root.startsWith("~/")
        ? `${options.home}/${root.slice(2)}`
        : isAbsolute(root)
          ? root
          : `${options.cwd}/${root}`;
  let current = "/";
  let existing = true;
  for (const part of raw.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    if (existing && exists(next)) {
      const real = realpathOr(next);
      // A dangling symbolic link: where it would lead cannot be checked, so the root cannot be either.
      if (real === undefined) return undefined;
      current = real;
    } else {
      existing = false;
      current = next;
    }
  }
  return current;
}

/** True when `inner` is `outer` or lies below it (both absolute; decided by `path.relative`, never by prefix). */
export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function realpathOr(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
