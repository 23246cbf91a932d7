import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { GatehouseError, readRegularFile } from "@gatehouse/host";

/** Why an OS call failed, in words, with its code. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    EISDIR: "it is a directory",
    ENOTREG: "it is not a regular file (a FIFO, a device or a socket)",
    ENOTDIR: "a folder on its path is a file",
    EEXIST: "a file is where a folder must be",
    ELOOP: "it is a symbolic link loop",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOENT: "it does not exist",
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Runs one file operation of a command that edits the user's files; an OS failure becomes a
 * GatehouseError naming the file (exit 2, no stack trace) instead of escaping as a crash.
 */
export function fileStep<T>(file: string, action: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GatehouseError) throw error;
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `cannot ${action} ${file}: ${reason(error)}; it was left as it is`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The text of a file a command is about to edit, `undefined` when there is none.
 * Contract: the open does not block (a FIFO fails at once); anything but a regular file, and a
 * file that is not valid UTF-8 (rewriting it would turn its bytes into U+FFFD), throws a
 * GatehouseError naming the file. A link is read through.
 */
export function readEditable(file: string): string | undefined {
  return fileStep(file, "read", () => {
    let bytes: Buffer;
    try {
      bytes = readRegularFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new GatehouseError(
        "GH_SETTINGS_INVALID",
        `${file} is not valid UTF-8 text; Gatehouse will not rewrite it (its bytes would be lost): fix it first; it was left as it is`,
      );
    }
  });
}

/**
 * Where writing `file` lands: the file itself, or the target of the link it is (the link is kept,
 * as an editor keeps it). A link whose target does not exist is refused.
 */
function writeTarget(file: string): string {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return file;
    throw error;
  }
  const target = stat.isSymbolicLink() ? realpathSync(file) : file;
  const real = lstatSync(target);
  if (!real.isFile()) {
    throw Object.assign(new Error("not a regular file"), { code: real.isDirectory() ? "EISDIR" : "ENOTREG" });
  }
  return target;
}

/**
 * Replaces (or creates) a file a command edits with `text`, atomically: a temporary file in the
 * same folder, then a rename. A link is written through to its target, never replaced.
 * Contract: anything in the way (a folder, a FIFO, a file where a folder must be, a link loop or
 * a dangling link) throws a GatehouseError naming the file; nothing is left behind.
 */
export function writeEditable(file: string, text: string): void {
  fileStep(file, "write", () => {
    mkdirSync(dirname(file), { recursive: true });
    const target = writeTarget(file);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, text, { flag: "wx" });
      renameSync(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") rmSync(temp, { force: true });
      throw error;
    }
  });
}
