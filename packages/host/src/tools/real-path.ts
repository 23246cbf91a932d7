import { readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/** The same bound the kernel uses (MAXSYMLINKS) so a symlink cycle ends instead of recursing. */
const MAX_LINK_HOPS = 40;

function readLinkOrUndefined(target: string): string | undefined {
  try {
    return readlinkSync(target);
  } catch {
    return undefined;
  }
}

function resolveFrom(absPath: string, hops: number): string {
  try {
    return realpathSync.native(absPath);
  } catch {
    // Missing (or unreadable) target: resolve the parent, then re-attach the last segment.
  }
  const parent = path.dirname(absPath);
  if (parent === absPath) return absPath;
  const candidate = path.join(resolveFrom(parent, hops), path.basename(absPath));
  // A dangling symlink is where a write would land through it; follow it by hand so both
  // spellings of the eventual file share one key.
  const link = hops < MAX_LINK_HOPS ? readLinkOrUndefined(candidate) : undefined;
  if (link === undefined) return candidate;
  return resolveFrom(path.resolve(path.dirname(candidate), link), hops + 1);
}

/**
 * The real location an absolute path refers to, for files that may not exist yet.
 * Contract: synchronous and never throws. An existing path gives its realpath; otherwise the
 * realpath of the deepest existing ancestor joined with the remaining segments, following
 * dangling symlinks on the way (at most 40 hops).
 */
export function resolveRealPath(absPath: string): string {
  return resolveFrom(path.resolve(absPath), 0);
}
