import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Directories find and grep never enter: version-control internals and installed dependencies. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** One entry met during a walk. */
export interface WalkEntry {
  /** Path relative to the walk root, with "/" separators. */
  relPath: string;
  absPath: string;
  /** "dir" includes symlinks to directories (listed, never entered); "other" is a broken link, socket, etc. */
  kind: "file" | "dir" | "other";
}

/** Orders names by code unit, so output is the same on every machine and locale. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function kindOf(entry: Dirent, absPath: string): Promise<{ kind: WalkEntry["kind"]; enter: boolean }> {
  if (entry.isDirectory()) return { kind: "dir", enter: !SKIPPED_DIRS.has(entry.name) };
  if (entry.isFile()) return { kind: "file", enter: false };
  if (!entry.isSymbolicLink()) return { kind: "other", enter: false };
  // A symlink is reported as what it points at but never entered: that is how a walk avoids
  // cycles and leaving the tree it was asked to search.
  try {
    const target = await stat(absPath);
    return { kind: target.isDirectory() ? "dir" : target.isFile() ? "file" : "other", enter: false };
  } catch {
    return { kind: "other", enter: false };
  }
}

/**
 * Depth-first walk under `root`, names sorted within each directory.
 * Contract: skips `.git` and `node_modules` directories (entry and contents), never follows
 * directory symlinks, and silently skips directories it cannot read (the walk is best effort).
 * Throws if `signal` is aborted between directories.
 */
export async function* walkTree(root: string, signal: AbortSignal): AsyncGenerator<WalkEntry> {
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
      const relPath = dir.relPath === "" ? entry.name : `${dir.relPath}/${entry.name}`;
      const { kind, enter } = await kindOf(entry, absPath);
      yield { relPath, absPath, kind };
      if (enter) subdirs.push({ absPath, relPath });
    }
    // Reversed so the stack pops them in name order.
    pending.push(...subdirs.reverse());
  }
}
