import { isAbsolute, resolve } from "node:path";
import type { ImageContent, TextContent } from "@gatehouse/sdk";

/** How a Gatehouse tool looks to a Claude Code hook: its Claude name and field names. */
interface ToolView {
  name: string;
  /** Gatehouse field → Claude field; fields not listed keep their name. */
  fields: Readonly<Record<string, string>>;
  /** Fields holding a path: Claude Code hands hooks absolute paths. */
  paths: readonly string[];
}

const VIEWS: Readonly<Record<string, ToolView>> = {
  read: { name: "Read", fields: { path: "file_path" }, paths: ["path"] },
  write: { name: "Write", fields: { path: "file_path" }, paths: ["path"] },
  edit: {
    name: "Edit",
    fields: { path: "file_path", oldText: "old_string", newText: "new_string", replaceAll: "replace_all" },
    paths: ["path"],
  },
  bash: { name: "Bash", fields: {}, paths: [] },
  ls: { name: "LS", fields: {}, paths: ["path"] },
  find: { name: "Glob", fields: {}, paths: ["path"] },
  grep: { name: "Grep", fields: {}, paths: ["path"] },
};

/** The tool's name as a hook sees it (`write` → `Write`; other tools keep theirs). */
export function claudeToolName(toolName: string): string {
  return VIEWS[toolName]?.name ?? toolName;
}

/** A call's input as Claude Code would give it to a hook: Claude's field names, absolute paths. */
export function toClaudeInput(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  cwd: string,
): Record<string, unknown> {
  const view = VIEWS[toolName];
  if (!view) return { ...input };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const absolute =
      view.paths.includes(key) && typeof value === "string" && !isAbsolute(value) && !value.startsWith("~");
    out[view.fields[key] ?? key] = absolute ? resolve(cwd, value) : value;
  }
  return out;
}

/** A hook's `updatedInput` back in Gatehouse's field names (the host re-validates it). */
export function fromClaudeInput(toolName: string, updated: Record<string, unknown>): Record<string, unknown> {
  const view = VIEWS[toolName];
  if (!view) return { ...updated };
  const back = Object.fromEntries(Object.entries(view.fields).map(([ours, theirs]) => [theirs, ours]));
  return Object.fromEntries(Object.entries(updated).map(([key, value]) => [back[key] ?? key, value]));
}

function textOf(content: readonly (TextContent | ImageContent)[]): string {
  return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** A result as Claude Code's `tool_response` of that tool would roughly read. */
export function toClaudeResponse(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  result: { content: readonly (TextContent | ImageContent)[]; isError: boolean },
  cwd: string,
): unknown {
  const text = textOf(result.content);
  if (toolName === "bash") return { stdout: text, stderr: "", interrupted: false, isImage: false };
  if (toolName === "write" || toolName === "edit") {
    const path = typeof input.path === "string" ? resolve(cwd, input.path) : input.path;
    return { filePath: path, success: !result.isError, output: text };
  }
  return { output: text, isError: result.isError };
}

/** The text of a result, for `PostToolUseFailure`'s `error`. */
export function errorText(content: readonly (TextContent | ImageContent)[]): string {
  return textOf(content);
}
