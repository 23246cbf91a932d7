import path from "node:path";
import type { PolicyFs } from "./policy-fs.ts";

/** The same bound the kernel uses (MAXSYMLINKS), so a symlink cycle ends instead of recursing. */
const MAX_LINK_HOPS = 40;

/** Where a path really lands. */
export interface RealResolution {
  /** The real path: symlinks followed, including a dangling one at the end (where a write would land). */
  path: string;
  /** Whether something exists at `path`. */
  exists: boolean;
  /** True when more than 40 symlinks were followed (a cycle): `path` is then not trustworthy. */
  loop: boolean;
}

function components(p: string): string[] {
  return p.split("/").filter((c) => c.length > 0 && c !== ".");
}

/** Drops the last `count` components of an absolute path. */
function strip(p: string, count: number): { head: string; tail: string[] } {
  const parts = components(p);
  return { head: `/${parts.slice(0, parts.length - count).join("/")}`, tail: parts.slice(parts.length - count) };
}

/**
 * Resolves an absolute path the way the kernel does, for paths that may not exist yet.
 * Contract: `rawAbsolute` is NOT lexically normalised first, so `link/../x` goes through `link`'s
 * target as the shell would. An existing path gives its realpath. Otherwise each component is
 * walked with lstat, following symlinks (dangling ones included); a missing component is taken
 * as a directory that will be created plainly, so a later `..` cancels it and the walk goes on
 * resolving symlinks after it (`ghost/../link/..`, after `mkdir ghost`). Never throws; POSIX only.
 */
export function resolveReal(rawAbsolute: string, fs: PolicyFs): RealResolution {
  const direct = fs.realpath(rawAbsolute);
  if (direct !== undefined) return { path: direct, exists: true, loop: false };

  const queue = components(rawAbsolute);
  let current = "/";
  let missing = 0; // how many trailing components of `current` do not exist
  let hops = 0;
  while (queue.length > 0) {
    const part = queue.shift()!;
    if (part === "..") {
      current = path.dirname(current);
      missing = Math.max(0, missing - 1);
      continue;
    }
    const next = path.join(current, part);
    const info = missing > 0 ? undefined : fs.lstat(next);
    if (info?.isSymbolicLink) {
      const target = fs.readlink(next);
      hops += 1;
      if (target === undefined || hops > MAX_LINK_HOPS) {
        return { path: path.join(next, ...queue), exists: false, loop: target !== undefined };
      }
      if (target.startsWith("/")) current = "/";
      queue.unshift(...components(target));
      continue;
    }
    current = next;
    if (info === undefined) missing += 1;
  }
  // The existing prefix is symlink-free; realpath only canonicalises its case where the filesystem folds it.
  const { head, tail } = strip(current, missing);
  return { path: path.join(fs.realpath(head) ?? head, ...tail), exists: missing === 0, loop: false };
}
