import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { runHostGit } from "./host-git.ts";

/** One path segment of a plain pattern: names with single `*` wildcards, or `**` alone. */
const SEGMENT = String.raw`(?:\*\*|(?:[\w.-]|\*(?!\*))+)`;

/**
 * A line git and ripgrep read alike: blank, a comment, or a pattern of names, single `*`
 * wildcards, `**` as a whole segment, and slashes. No negation, escapes, brackets, runs of stars
 * inside a segment (three stars, then a slash, then `.env` match for git, not for ripgrep), carriage returns or white space
 * (ripgrep trims a tab after `!.env`, git does not).
 */
const PLAIN_LINE = new RegExp(String.raw`^(?:#.*|\/?${SEGMENT}(?:\/${SEGMENT})*\/?)?$`);

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
 * The repository `dir` is in, as the host's git finds it (`rev-parse`): its top folder and its
 * `info/exclude` file. Contract: `undefined` outside a repository or when git cannot tell.
 */
export function repositoryOf(dir: string): Repository | undefined {
  const answer = runHostGit(["rev-parse", "--show-toplevel", "--git-path", "info/exclude"], { cwd: dir });
  if (answer?.status !== 0 || typeof answer.stdout !== "string") return undefined;
  const [top, exclude] = answer.stdout.split("\n");
  if (!top || !exclude) return undefined;
  return { top, exclude: path.resolve(dir, exclude) };
}

/** Whether a folder from `dir` up to `top` (not included) holds a `.git` entry of its own. */
export function repositoryBoundaryBelow(dir: string, top: string): boolean {
  for (let at = dir; at !== top && path.dirname(at) !== at; at = path.dirname(at)) {
    if (lstatSync(path.join(at, ".git"), { throwIfNoEntry: false }) !== undefined) return true;
  }
  return false;
}

/** The `.gitignore` files of `dir` and of every folder above it up to `top` (both included). */
export function ignoreFilesAbove(dir: string, top: string): string[] {
  const files: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    files.push(path.join(at, ".gitignore"));
    if (at === top || path.dirname(at) === at) return files;
  }
}
