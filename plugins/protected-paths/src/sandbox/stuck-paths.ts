import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The marker file of `p` in the quarantine folder's `stuck` folder. */
function markerOf(quarantine: string, p: string): string {
  return path.join(quarantine, "stuck", `${createHash("sha256").update(p).digest("hex").slice(0, 32)}.json`);
}

/**
 * Protected paths a review could not take out of the workspace, kept in memory and as marker
 * files in the quarantine folder, so a later process (the next `gatehouse run`) knows them too
 * and does not take them for what was there before.
 * Contract: never throws; a marker that cannot be written or read only loses the memory across
 * processes.
 */
export class StuckPaths {
  readonly #paths = new Set<string>();

  /** `mine`: whether a path belongs to this workspace (markers of others are left alone). */
  constructor(private readonly mine: (p: string) => boolean) {}

  /** How many are known. */
  get size(): number {
    return this.#paths.size;
  }

  /** The paths known. */
  values(): string[] {
    return [...this.#paths];
  }

  /** Remembers `p`, here and in the quarantine folder. */
  add(p: string, quarantine: () => string): void {
    this.#paths.add(p);
    try {
      const marker = markerOf(quarantine(), p);
      mkdirSync(path.dirname(marker), { recursive: true, mode: 0o700 });
      writeFileSync(marker, JSON.stringify({ path: p }), { mode: 0o600 });
    } catch {
      // Remembered in this process only.
    }
  }

  /** Forgets `p` (it is gone, or was taken out). */
  delete(p: string, quarantine: () => string): void {
    this.#paths.delete(p);
    try {
      rmSync(markerOf(quarantine(), p), { force: true });
    } catch {
      // A stale marker names a path that is gone: the next load forgets it.
    }
  }

  /** Adds what earlier processes remembered for this workspace. */
  load(quarantine: () => string): void {
    let folder: string;
    let names: string[];
    try {
      folder = path.join(quarantine(), "stuck");
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      try {
        const p = (JSON.parse(readFileSync(path.join(folder, name), "utf8")) as { path?: unknown }).path;
        if (typeof p === "string" && this.mine(p)) this.#paths.add(p);
      } catch {
        // not a marker of ours
      }
    }
  }
}
