import { closeSync, constants, fsyncSync, ftruncateSync, mkdirSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { assertSessionLocation, openSessionFile } from "./session-path.ts";

/** When appended entries reach the disk: after every entry, at every turn end (default), or when the OS decides. */
export type SessionFsync = "every" | "turn" | "off";

/**
 * Appends whole lines to a session file through one O_APPEND descriptor.
 * Contract: every entry is one `write` of one complete line, so a crash leaves at most one torn
 * last line; a write failure throws GH_SESSION naming the file (the transcript must not silently
 * stop being recorded). Only a regular file on storage is opened (see `openSessionFile`), created
 * with mode 0600 since a transcript holds whatever the tools read.
 */
export class SessionWriter {
  readonly file: string;
  readonly fsync: SessionFsync;
  #fd: number | undefined;

  constructor(file: string, fsync: SessionFsync) {
    this.file = file;
    this.fsync = fsync;
  }

  /** Cuts a torn last line off before appending, so new lines never glue onto a fragment. */
  truncateTo(bytes: number): void {
    this.#withErrors("repair", () => ftruncateSync(this.#open(), bytes));
  }

  /** Appends one line (a JSON value without its newline). */
  append(line: string): void {
    this.#withErrors("append to", () => {
      const fd = this.#open();
      writeSync(fd, `${line}\n`);
      if (this.fsync === "every") fsyncSync(fd);
    });
  }

  /** Flushes appended lines to the disk (turn ends, close). */
  sync(): void {
    if (this.#fd !== undefined && this.fsync !== "off") this.#withErrors("sync", () => fsyncSync(this.#fd as number));
  }

  /** Syncs and releases the descriptor. */
  close(): void {
    if (this.#fd === undefined) return;
    this.sync();
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): number {
    if (this.#fd === undefined) {
      assertSessionLocation(this.file); // before creating directories there
      mkdirSync(dirname(this.file), { recursive: true });
      this.#fd = openSessionFile(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
    }
    return this.#fd;
  }

  #withErrors(what: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof GatehouseError && error.code === "GH_SESSION") throw error; // it names the file already
      throw new GatehouseError("GH_SESSION", `Cannot ${what} session ${this.file}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  }
}
