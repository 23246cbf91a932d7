import { unlinkSync } from "node:fs";

/**
 * Removes a file if it is there (`rm -f` for one file). Plain `unlink`: Node 20's `rmSync` loads
 * its recursive remover on first use, a cost every agent-hook process would pay.
 * Contract: a missing file is no error; any other failure throws.
 */
export function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
