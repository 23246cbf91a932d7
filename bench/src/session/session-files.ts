import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp folder for the section's session files, with fresh paths for per-trial files. */
export interface SessionDir {
  root: string;
  /** A fresh file path (not created) for one Gatehouse trial. */
  nextFile(): string;
  /** A new empty folder (the peer names its session files itself). */
  newDir(name: string): string;
  /** Removes every file the section wrote. */
  remove(): void;
}

/** Creates the section's temp folder. */
export function createSessionDir(): SessionDir {
  const root = mkdtempSync(join(tmpdir(), "gh-bench-session-"));
  let n = 0;
  return {
    root,
    nextFile: () => join(root, `trial-${n++}.jsonl`),
    newDir(name) {
      const dir = join(root, name);
      mkdirSync(dir);
      return dir;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Complete lines in a file (each ends with a newline), the header included. */
export function countLines(file: string): number {
  const text = readFileSync(file, "utf8");
  let lines = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}
