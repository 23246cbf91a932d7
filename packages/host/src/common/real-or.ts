import { realpathSync } from "node:fs";

/** The real path of `path` (every link resolved), or `path` itself when it cannot be resolved (missing, unreadable). */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
