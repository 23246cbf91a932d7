import { homedir } from "node:os";
import path from "node:path";

/** A doubled separator, a `.` or `..` segment, or a trailing separator: what `path.resolve` rewrites. */
const NOT_NORMAL = /\/\/|(?:^|\/)\.\.?(?:\/|$)|\/$/;

/**
 * Turns a path as the model spelled it into an absolute path.
 * Contract: absolute paths are normalised as-is; `~` and `~/x` expand to `os.homedir()`; anything
 * else is resolved against `cwd`. An empty (or blank) path or one containing a NUL byte throws an
 * Error whose message names the path, because the OS would truncate or reject it silently.
 */
export function resolveToolPath(input: string, cwd: string): string {
  if (input.trim().length === 0) {
    throw new Error(`Invalid path ${JSON.stringify(input)}: the path is empty; pass a file or directory path.`);
  }
  if (input.includes("\0")) {
    throw new Error(`Invalid path ${JSON.stringify(input)}: it contains a NUL byte, which no file path may contain.`);
  }
  if (input === "~") return homedir();
  if (input.startsWith("~/")) return path.join(homedir(), input.slice(2));
  // The common case needs no walk: a plain relative path below a normal cwd, or a normal absolute one.
  if (!NOT_NORMAL.test(input)) {
    if (input.startsWith("/")) return input;
    if (cwd.startsWith("/") && !NOT_NORMAL.test(cwd)) return `${cwd}/${input}`;
  }
  return path.resolve(cwd, input);
}
