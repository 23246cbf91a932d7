import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/**
 * Call right before Gatehouse loads or resolves a module after start (a lazy `require`, a dynamic
 * `import()`, an extension through jiti).
 * Why: Node's resolver (`fs.realpathSync` with its module cache, Node 20–22 at least) reads the mode
 * of the process's last `stat` call when a path prefix is already cached, and stops following
 * symbolic links there if that stat was of a FIFO or a socket. After Gatehouse had looked at one
 * (a `read` of a named pipe, a log swapped for a FIFO, a socket in the workspace),
 * `require("pino")` resolved pnpm's link to pino as a plain folder and failed with "Cannot find
 * module 'pino-std-serializers'", which turned an extension's logged error into a crash of the
 * run. A stat of this regular file leaves the resolver a file's mode to read.
 * Contract: one `stat` system call; never throws.
 */
export function readyResolver(): void {
  try {
    statSync(SELF);
  } catch {
    // Only a vanished installation gets here, and then the load that follows reports it.
  }
}
