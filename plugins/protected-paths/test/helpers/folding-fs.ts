import { readdirSync } from "node:fs";
import { nodePolicyFs, type PolicyFs } from "../../src/index.ts";

/**
 * The real filesystem seen as a case-folding one (macOS, Windows), for a tree that no longer
 * changes: the CI disk is case-sensitive. Each component is looked up case-insensitively among
 * the directory's entries (listings cached); `..` is kept rather than removed lexically, so the
 * kernel still resolves `link/..` through the link.
 */
export function createFoldingFs(): PolicyFs {
  const listings = new Map<string, string[]>();
  const entries = (dir: string): string[] => {
    let names = listings.get(dir);
    if (!names) {
      try {
        names = readdirSync(dir);
      } catch {
        names = [];
      }
      listings.set(dir, names);
    }
    return names;
  };
  const onDisk = (p: string): string => {
    let current = "";
    for (const part of p.split("/").filter((c) => c.length > 0)) {
      const folded = part.toLowerCase();
      const special = part === "." || part === "..";
      const match = special ? part : entries(current || "/").find((e) => e.toLowerCase() === folded);
      current = `${current}/${match ?? part}`;
    }
    return current || "/";
  };
  return {
    realpath: (p) => nodePolicyFs.realpath(onDisk(p)),
    lstat: (p) => nodePolicyFs.lstat(onDisk(p)),
    readlink: (p) => nodePolicyFs.readlink(onDisk(p)),
    readdir: (p) => nodePolicyFs.readdir(onDisk(p)),
  };
}
