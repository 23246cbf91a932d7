import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

/**
 * The contents of a regular file. The open does not block, so a FIFO (or a device) planted where
 * a settings file, an extension or its manifest is expected fails at once instead of hanging every
 * command and agent hook; a directory fails with EISDIR, anything else with ENOTREG.
 */
export function readRegularFile(file: string): Buffer;
export function readRegularFile(file: string, encoding: "utf8"): string;
export function readRegularFile(file: string, encoding?: "utf8"): Buffer | string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const [code, what] = stat.isDirectory() ? ["EISDIR", "is a directory"] : ["ENOTREG", "is not a regular file"];
      throw Object.assign(new Error(`${code}: ${what}, open '${file}'`), { code });
    }
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
