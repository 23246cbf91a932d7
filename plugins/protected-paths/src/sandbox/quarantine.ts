import { renameSync, rmSync } from "node:fs";
import path from "node:path";

/** Where a removed path went. */
export type Removal = { movedTo: string } | { deleted: true };

let counter = 0;

/**
 * Takes a path out of the workspace: moved into the quarantine directory (so nothing a person
 * put there is lost), or deleted when it cannot be moved there (another filesystem).
 * Contract: never follows the path if it is a symlink (the link itself moves); throws only when
 * the path can be neither moved nor deleted.
 */
export function quarantine(p: string, directory: () => string): Removal {
  try {
    counter += 1;
    const target = path.join(directory(), `${Date.now()}-${process.pid}-${counter}-${path.basename(p)}`);
    renameSync(p, target);
    return { movedTo: target };
  } catch {
    rmSync(p, { recursive: true, force: true });
    return { deleted: true };
  }
}

/** "moved to X" or "deleted", for reasons. */
export function describeRemoval(removal: Removal): string {
  return "movedTo" in removal ? `moved out of the workspace to ${removal.movedTo}` : "deleted";
}
