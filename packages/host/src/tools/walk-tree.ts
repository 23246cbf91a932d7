import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** Directories find and grep never enter: version-control internals and installed dependencies. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** One entry met during a walk. */
export interface WalkEntry {
  /** Path relative to the walk root, with "/" separators. */
  relPath: string;
  absPath: string;
  /**
   * "dir" includes symlinks to directories (listed, never entered); "other" is a broken link, a
   * socket, or a symlink that leads out of the walked tree (never followed).
   */
  kind: "file" | "dir" | "other";
}

/** Options of `walkTree`. */
export interface WalkOptions {
  signal: AbortSignal;
  /** The guards' read filter (`ctx.canRead`): refused entries are neither yielded nor entered. */
  canRead?: ((absolutePath: string) => boolean) | undefined;
  /** Called once per entry the filter withheld. */
  onWithheld?: () => void;
}

/** Orders names by code unit, so output is the same on every machine and locale. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `p` is `root` or lies below it. */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

async function kindOf(
  entry: Dirent,
  absPath: string,
  rootReal: string,
): Promise<{ kind: WalkEntry["kind"]; enter: boolean }> {
  if (entry.isDirectory()) return { kind: "dir", enter: !SKIPPED_DIRS.has(entry.name) };
  if (entry.isFile()) return { kind: "file", enter: false };
  if (!entry.isSymbolicLink()) return { kind: "other", enter: false };
  // A symlink is reported as what it points at but never entered, and never followed out of the
  // tree: that is how a walk avoids cycles and leaving the place it was asked to search.
  try {
    if (!isInside(rootReal, await realpath(absPath))) return { kind: "other", enter: false };
    const target = await stat(absPath);
    return { kind: target.isDirectory() ? "dir" : target.isFile() ? "file" : "other", enter: false };
  } catch {
    return { kind: "other", enter: false };
  }
}

/**
 * Depth-first walk under `root`, names sorted within each directory.
 * Contract: skips `.git` and `node_modules` directories (entry and contents), never follows
 * directory symlinks nor symlinks whose target lies outside `root` (reported as "other"), skips
 * entries `canRead` refuses (counting each with `onWithheld`), and silently skips directories it
 * cannot read (the walk is best effort). Throws if `signal` is aborted between directories.
 */
export async function* walkTree(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const { signal, canRead, onWithheld } = options;
  const rootReal = await realpath(root).catch(() => root);
  const pending: { absPath: string; relPath: string }[] = [{ absPath: root, relPath: "" }];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const dir = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir.absPath, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => byName(a.name, b.name));
    const subdirs: { absPath: string; relPath: string }[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
      const absPath = path.join(dir.absPath, entry.name);
      if (canRead && !canRead(absPath)) {
        onWithheld?.();
        continue;
      }
      const relPath = dir.relPath === "" ? entry.name : `${dir.relPath}/${entry.name}`;
      const { kind, enter } = await kindOf(entry, absPath, rootReal);
      yield { relPath, absPath, kind };
      if (enter) subdirs.push({ absPath, relPath });
    }
    // Reversed so the stack pops them in name order.
    pending.push(...subdirs.reverse());
  }
}
