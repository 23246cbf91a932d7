import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { linkNewFile } from "./link-new-file.ts";
import { readBoundedText } from "./read-bounded.ts";

/** The file in a log's seal folder that holds the log's id. */
export const LOG_ID_FILE = "log.id";

/** A log id: 32 hex digits (128 random bits). */
export const LOG_ID = /^[0-9a-f]{32}$/;

/**
 * The log's id: random, created with its seal folder, and recorded (MAC-ed) in every session_start
 * and seal, so that verify can tell this log's sessions from another log's — even one at the same
 * path in another Gatehouse home with the same (team) key. It lives in the seal folder, so it moves
 * with the seals (`--seals DIR`) and survives a move of the Gatehouse home.
 * Contract: created once (linked into place, so two sessions starting at once agree); throws,
 * naming the file, when it holds anything but an id (the session then fails closed).
 */
export function logIdOf(sealDir: string): string {
  const file = join(sealDir, LOG_ID_FILE);
  let text: string;
  try {
    text = readBoundedText(file, 1024);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // The folder's first session: create it (false: another session linked its id first).
    linkNewFile(file, `${randomBytes(16).toString("hex")}\n`, { sync: true });
    text = readBoundedText(file, 1024);
  }
  const id = text.trim();
  if (!LOG_ID.test(id)) throw new Error(`the log id ${file} is not 32 hex digits: it was altered`);
  return id;
}

/** The log id recorded in a seal folder, if it holds a valid one (never throws). */
export function readLogId(sealDir: string): string | undefined {
  try {
    const id = readBoundedText(join(sealDir, LOG_ID_FILE), 1024).trim();
    return LOG_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
