/**
 * What `gatehouse sessions` shows about one session file, read without the host's session code
 * (listing must not repair or migrate anything): its header, how many messages it holds, and its
 * first prompt — scrubbed of secret shapes like the audit and made safe to print.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { scrubSecrets } from "@gatehouse/tool-audit";
import { oneLine } from "../view/ansi.ts";

/** One session as listed. */
export interface SessionSummary {
  id: string;
  file: string;
  /** When it started (its header), ISO; empty when unknown. */
  created: string;
  /** Last change of the file. */
  modified: string;
  modifiedMs: number;
  /** Message entries (prompts, answers, tool results). */
  messages: number;
  /** Prompts the user gave (user messages). */
  prompts: number;
  /** The first prompt, one line, at most 200 characters; empty when none. */
  firstPrompt: string;
  /** Why the file cannot be resumed as it is (unreadable, empty, no header, a corrupt line). */
  problem?: string;
}

const MAX_PROMPT = 200;

function promptText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b && typeof b === "object" && "text" in b ? String((b as { text: unknown }).text) : ""))
    .join(" ");
}

function readRegularFile(file: string): { text: string; mtimeMs: number } {
  // O_NOFOLLOW | O_NONBLOCK: a link or a FIFO planted in the folder is never followed or waited on.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error("not a regular file");
    return { text: readFileSync(fd, "utf8"), mtimeMs: stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Summarizes one session file.
 * Contract: never throws; a file that cannot be read, is empty, has no session header or has a
 * corrupt line before its last yields a summary with `problem` (what --resume would refuse); the
 * rest is still counted. A torn last line (no newline after it) is no problem: resuming drops it.
 */
export function readSessionSummary(file: string, id: string): SessionSummary {
  const summary: SessionSummary = {
    id,
    file,
    created: "",
    modified: "",
    modifiedMs: 0,
    messages: 0,
    prompts: 0,
    firstPrompt: "",
  };
  let read: { text: string; mtimeMs: number };
  try {
    read = readRegularFile(file);
  } catch (error) {
    summary.problem = `cannot be read: ${(error as Error).message}`;
    return summary;
  }
  summary.modifiedMs = read.mtimeMs;
  summary.modified = new Date(read.mtimeMs).toISOString();
  if (read.text.trim() === "") summary.problem = "empty: no session header";
  const lines = read.text.split("\n");
  // A file that ends without a newline ends in a torn append (a crash mid-write): the host ignores it.
  const last = read.text.endsWith("\n") ? lines.length : lines.length - 1;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // Resuming refuses a corrupt line (gatehouse session check names it): say so in the list.
      if (index < last || index === 0) summary.problem ??= `corrupt line ${index + 1}`;
      continue;
    }
    if (index === 0 && entry?.type === "session") {
      if (typeof entry.created === "string") summary.created = entry.created;
      continue;
    }
    if (index === 0) summary.problem = "no session header on line 1";
    if (entry?.type !== "message") continue;
    summary.messages++;
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (message?.role !== "user") continue;
    summary.prompts++;
    if (summary.firstPrompt === "")
      summary.firstPrompt = oneLine(scrubSecrets(promptText(message.content))).slice(0, MAX_PROMPT);
  }
  return summary;
}
