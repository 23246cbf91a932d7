import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * A line git and ripgrep read alike: blank, a comment, or a pattern of names, `*` and slashes.
 * No negation, escapes, brackets, `**` runs, carriage returns or white space: on those lines the
 * two disagree (ripgrep trims a tab after `!.env`, git does not).
 */
const PLAIN_LINE = /^(?:#.*|\/?[\w.*-]+(?:\/[\w.*-]+)*\/?)?$/;

/** The longest ignore file read; a larger one is not taken as plain. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * True when `file` is missing, or every line of it is one git and ripgrep read alike (see
 * `PLAIN_LINE`), in valid UTF-8 without a byte-order mark (ripgrep stops at invalid UTF-8).
 * Contract: never throws; an unreadable or oversized file is not plain.
 */
export function plainIgnoreFile(file: string): boolean {
  let bytes: Buffer;
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st === undefined) return true;
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return false;
    bytes = readFileSync(file);
  } catch {
    return false;
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return false;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return false;
  }
  return text.split("\n").every((line) => PLAIN_LINE.test(line));
}

/** A repository's top folder and its own excludes file. */
export interface Repository {
  top: string;
  exclude: string;
}

/**
 * The repository `dir` is in: the nearest folder at or above it holding a `.git` folder.
 * Contract: `undefined` outside a repository, and where the nearest `.git` is a file (a linked
 * worktree or a submodule keeps its excludes elsewhere): nothing there is taken as ignored.
 */
export function repositoryOf(dir: string): Repository | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const git = lstatSync(path.join(at, ".git"), { throwIfNoEntry: false });
    if (git?.isDirectory()) return { top: at, exclude: path.join(at, ".git", "info", "exclude") };
    if (git !== undefined) return undefined;
    if (path.dirname(at) === at) return undefined;
  }
}

/** The `.gitignore` files of `dir` and of every folder above it up to `top` (both included). */
export function ignoreFilesAbove(dir: string, top: string): string[] {
  const files: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    files.push(path.join(at, ".gitignore"));
    if (at === top || path.dirname(at) === at) return files;
  }
}
