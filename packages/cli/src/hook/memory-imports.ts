import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ToolEffect } from "@gatehouse/sdk";

/**
 * `@path` as Claude Code reads an import in a memory file (`CLAUDE.md`, `.claude/rules/*.md`, and
 * any file one of them imports, to five levels): an `@` at the start of a line or after white
 * space, then the path up to white space (a backslash keeps a space).
 */
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\.)+)/g;

/** Punctuation a sentence may put right after a path (`see @docs/a.md.`): the path is checked both ways. */
const TRAILING = /[.,;:!?)\]}>"'`]+$/;

/**
 * The files a text would make Claude Code read by itself, resolved from the folder of the file that
 * holds it (`~/` from the home): as `read` effects, so a write that puts `@.env` in a memory file —
 * or in any file a memory file imports — is refused like a read of `.env`. Claude Code expands the
 * imports when it loads the file, with no tool call a hook could see.
 * Contract: over-approximates (code spans and fences are not skipped; a token with and without its
 * trailing punctuation); never throws.
 */
export function importReads(text: string, file: string): ToolEffect[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    const raw = (match[1] ?? "").replaceAll(/\\(.)/g, "$1");
    for (const spelled of new Set([raw, raw.replace(TRAILING, "")])) {
      if (spelled === "" || spelled.includes("\0")) continue;
      const home = spelled === "~" || spelled.startsWith("~/");
      paths.add(
        home ? join(homedir(), spelled.slice(1)) : isAbsolute(spelled) ? spelled : resolve(dirname(file), spelled),
      );
    }
  }
  return [...paths].map((path) => ({ kind: "read", path }));
}

/** One replacement of Claude Code's Edit (`replace_all` replaces every occurrence). */
interface Replacement {
  old: string;
  next: string;
  all: boolean;
}

function replacementsOf(name: string, input: Record<string, unknown>): Replacement[] {
  const one = (edit: Record<string, unknown>): Replacement => ({
    old: typeof edit.old_string === "string" ? edit.old_string : "",
    next: typeof edit.new_string === "string" ? edit.new_string : "",
    all: edit.replace_all === true,
  });
  if (name === "MultiEdit") {
    const edits = Array.isArray(input.edits) ? input.edits : [];
    return edits.filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null).map(one);
  }
  return [one(input)];
}

/**
 * The text a Write, Edit or MultiEdit leaves in `file`: Write's `content`; an edit applied to the
 * file as it is now. Where that cannot be told (the file cannot be read), the file's text and every
 * new string joined by line breaks and by nothing, so an import the edit completes is still seen.
 */
export function textAfter(name: string, input: Record<string, unknown>, file: string): string {
  if (name === "Write") return typeof input.content === "string" ? input.content : "";
  const replacements = replacementsOf(name, input);
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = undefined;
  }
  const news = replacements.map((r) => r.next);
  if (text === undefined) return [...news, news.join("")].join("\n");
  let after = text;
  for (const r of replacements) {
    if (r.old === "") return [text, ...news, `${text}${news.join("")}`].join("\n");
    after = r.all ? after.split(r.old).join(r.next) : after.replace(r.old, () => r.next);
  }
  return after;
}
