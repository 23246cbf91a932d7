import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The folders, relative to a workspace root or the home, whose Markdown files Claude Code runs
 * commands from by itself: a skill's, subagent's or slash command's front matter may hold `hooks`,
 * and its body `!`…`` commands and ```` ```! ```` blocks, run when the file is loaded.
 */
export const AGENT_MARKDOWN_FOLDERS: readonly string[] = [".claude/skills", ".claude/agents", ".claude/commands"];

/** How deep below such a folder, and how many files, are read (a skill is `skills/NAME/SKILL.md`). */
const MAX_DEPTH = 4;
const MAX_FILES = 500;

/** The front matter of a Markdown file: the lines between a first line `---` and the next `---`. */
function frontMatter(text: string): { head: string; body: string } {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { head: "", body: text };
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end === -1) return { head: lines.slice(1).join("\n"), body: "" };
  return { head: lines.slice(1, end).join("\n"), body: lines.slice(end + 1).join("\n") };
}

/**
 * The `hooks:` block of a front matter, whatever YAML style it is written in: from the `hooks` key
 * to the next key at its indentation or less. Taken whole, so block scalars and flow mappings count.
 */
function hooksBlock(head: string): string[] {
  const out: string[] = [];
  let indent: number | undefined;
  for (const line of head.split("\n")) {
    const at = line.search(/\S/);
    if (indent === undefined) {
      const key = /^(\s*)hooks\s*:(.*)$/.exec(line);
      if (key) {
        indent = key[1]?.length ?? 0;
        out.push(key[2] ?? "");
      }
      continue;
    }
    if (at !== -1 && at <= indent && !line.trimStart().startsWith("-") && /^\s*[\w"'-]+\s*:/.test(line)) {
      indent = undefined;
      const again = /^(\s*)hooks\s*:(.*)$/.exec(line);
      if (again) {
        indent = again[1]?.length ?? 0;
        out.push(again[2] ?? "");
      }
      continue;
    }
    out.push(line);
  }
  return out;
}

/** The `!`…`` commands and ```` ```! ```` blocks of a body, as Claude Code's loader finds them. */
function bangCommands(body: string): string[] {
  const out: string[] = [];
  for (const match of body.matchAll(/(?:^|\s)!`([^`]*)`/g)) out.push(match[1] ?? "");
  for (const match of body.matchAll(/^\s*```!\s*\n([\s\S]*?)^\s*```/gm)) out.push(match[1] ?? "");
  return out;
}

/** The Markdown files below `dir` (links to folders are not entered), at most `MAX_FILES`. */
function markdownFiles(dir: string, depth: number, out: string[]): string[] {
  if (depth > MAX_DEPTH || out.length >= MAX_FILES) return out;
  let entries: { name: string; isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(full, depth + 1, out);
    else if ((entry.isFile() || entry.isSymbolicLink()) && /\.md$/i.test(entry.name)) out.push(full);
    if (out.length >= MAX_FILES) break;
  }
  return out;
}

/**
 * The command lines Claude Code runs by itself from the skills, subagents and slash commands below
 * `base` (a workspace root or the home): their front matter's `hooks` and their `!` commands.
 * Contract: never throws; unreadable files and folders give nothing; bounded in depth and count.
 */
export function agentMarkdownCommands(base: string): string[] {
  const out: string[] = [];
  for (const folder of AGENT_MARKDOWN_FOLDERS) {
    for (const file of markdownFiles(path.join(base, folder), 0, [])) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      const { head, body } = frontMatter(text);
      out.push(...hooksBlock(head), ...bangCommands(body));
    }
  }
  return out;
}
