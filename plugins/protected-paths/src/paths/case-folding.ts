import path from "node:path";
import type { PolicyFs } from "./policy-fs.ts";

function swapCase(name: string): string | undefined {
  const swapped = [...name].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
  return swapped === name ? undefined : swapped;
}

function sameEntry(fs: PolicyFs, a: string, b: string): boolean | undefined {
  const left = fs.lstat(a);
  if (!left) return undefined;
  const right = fs.lstat(b);
  return right !== undefined && right.dev === left.dev && right.ino === left.ino;
}

/** Probes the first name with letters on the way up from `dir`, then the entries of `dir`. */
function probe(dir: string, fs: PolicyFs): boolean | undefined {
  for (let at = dir; path.dirname(at) !== at; at = path.dirname(at)) {
    const variant = swapCase(path.basename(at));
    const answer = variant === undefined ? undefined : sameEntry(fs, at, path.join(path.dirname(at), variant));
    if (answer !== undefined) return answer;
  }
  for (const entry of fs.readdir(dir) ?? []) {
    const variant = swapCase(entry.name);
    const answer =
      variant === undefined ? undefined : sameEntry(fs, path.join(dir, entry.name), path.join(dir, variant));
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/**
 * Whether the filesystem holding `dir` folds case, found by looking up a case variant of an
 * existing name and comparing device and inode (a distinct file with that spelling is "no").
 * Contract: never creates anything; when no name with letters can be probed, answers the
 * platform's usual default (folding on macOS and Windows).
 */
export function detectCaseFolding(dir: string, fs: PolicyFs, platform: NodeJS.Platform = process.platform): boolean {
  return probe(dir, fs) ?? (platform === "darwin" || platform === "win32");
}
