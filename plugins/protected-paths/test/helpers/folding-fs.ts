import { readdirSync } from "node:fs";
import { nodePolicyFs, type PolicyFs } from "../../src/index.ts";

/**
 * The real filesystem seen as a case-folding one (macOS, Windows), for a tree that no longer
 * changes: the CI disk is case-sensitive. Each component is looked up case-insensitively among
 * the directory's entries (listings cached); `..` is kept rather than removed lexically, so the
 * kernel still resolves `link/..` through the link.
 */
export function createFoldingFs(): PolicyFs {
  // Per directory: each entry by its folded name (the first one listed wins). A map, not a scan
  // of the listing: the fixture lies in the system's temp directory, which may hold tens of
  // thousands of entries, and every component of every spelling is looked up here.
  const listings = new Map<string, Map<string, string>>();
  const entries = (dir: string): Map<string, string> => {
    let names = listings.get(dir);
    if (!names) {
      names = new Map();
      let listed: string[] = [];
      try {
        listed = readdirSync(dir);
      } catch {
        // unreadable or missing: no entries
      }
      for (const name of listed) {
        const folded = name.toLowerCase();
        if (!names.has(folded)) names.set(folded, name);
      }
      listings.set(dir, names);
    }
    return names;
  };
  const onDisk = (p: string): string => {
    let current = "";
    for (const part of p.split("/").filter((c) => c.length > 0)) {
      const special = part === "." || part === "..";
      const match = special ? part : entries(current || "/").get(part.toLowerCase());
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
