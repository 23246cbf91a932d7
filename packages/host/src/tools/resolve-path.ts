import { homedir } from "node:os";
import path from "node:path";

/** A doubled separator, a `.` or `..` segment, or a trailing separator: what `path.resolve` rewrites. */
const NOT_NORMAL = /\/\/|(?:^|\/)\.\.?(?:\/|$)|\/$/;

/** The longest path a system call takes (Linux's PATH_MAX less its NUL). */
const MAX_PATH_BYTES = 4095;

/**
 * Turns a path as the model spelled it into an absolute path.
 * Contract: absolute paths are normalised as-is; `~` and `~/x` expand to `os.homedir()`; anything
 * else is resolved against `cwd`. An empty (or blank) path, one containing a NUL byte, or one longer
 * than any system call accepts (4095 bytes) throws an Error whose message names the path, because
 * the OS would truncate or reject it — a 400 KB path of segments ended as "Maximum call stack size
 * exceeded" after half a minute.
 */
export function resolveToolPath(input: string, cwd: string): string {
  if (input.trim().length === 0) {
    throw new Error(`Invalid path ${JSON.stringify(input)}: the path is empty; pass a file or directory path.`);
  }
  // Each UTF-16 unit is at most 3 bytes of UTF-8: only a long string needs counting.
  if (input.length > MAX_PATH_BYTES / 3 && Buffer.byteLength(input, "utf8") > MAX_PATH_BYTES) {
    const bytes = Buffer.byteLength(input, "utf8");
    throw new Error(
      `Invalid path ${JSON.stringify(input.slice(0, 60))}… (${bytes} bytes): it is longer than the ${MAX_PATH_BYTES} bytes a system call accepts; spell it shorter.`,
    );
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

/**
 * `resolveToolPath` for a tool that acts on one file (read, write, edit).
 * Contract: a path spelled as a directory — ending in `/` or `/.` — throws an Error naming it and
 * the tool: the OS refuses `f.txt/` (ENOTDIR) and never makes `dir/` a file, but the resolved path
 * drops the ending, so `write dir/` created a file named `dir` and `write f.txt/` overwrote f.txt.
 */
export function resolveFilePath(input: string, cwd: string, tool: string): string {
  if (input.length > 1 && (input.endsWith("/") || input.endsWith("/."))) {
    const ending = input.endsWith("/") ? "/" : "/.";
    throw new Error(
      `Invalid path ${JSON.stringify(input)}: a path ending in "${ending}" names a directory, and ${tool} acts on a file; drop the trailing "${ending}".`,
    );
  }
  return resolveToolPath(input, cwd);
}
