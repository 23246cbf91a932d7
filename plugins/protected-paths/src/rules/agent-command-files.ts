import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { agentMarkdownCommands } from "./agent-markdown-commands.ts";

/**
 * The JSON files, relative to a workspace root, in which other agents and editors configure
 * commands they run by themselves (hooks, MCP servers, status lines, credential helpers, tasks
 * that run when the folder opens), and Gatehouse's own hooks: files the default rules protect. A
 * script such a command names runs as the command does (for another agent: unconfined), so
 * writing it is writing the command.
 */
const PROJECT_CONFIGS = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
  ".codex/hooks.json",
  ".cursor/hooks.json",
  ".cursor/mcp.json",
  ".gemini/settings.json",
  ".vscode/tasks.json",
  ".vscode/mcp.json",
  ".zed/tasks.json",
  ".windsurf/hooks.json",
  ".kiro/settings/mcp.json",
  ".roo/mcp.json",
  ".amazonq/mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".opencode/opencode.json",
  ".opencode/opencode.jsonc",
  ".devcontainer/devcontainer.json",
  ".devcontainer.json",
  ".gatehouse/settings.json",
  ".gatehouse/settings.local.json",
];

/** The user's own files of that kind: their hooks reach into any project (`$CLAUDE_PROJECT_DIR/…`). */
const USER_CONFIGS = [".claude/settings.json", ".codex/hooks.json", ".cursor/hooks.json", ".gemini/settings.json"];

/**
 * Keys whose values are command lines or their words: `command` and `args` (hooks, MCP servers,
 * tasks), Claude Code's helpers (`apiKeyHelper`, `awsAuthRefresh`, `otelHeadersHelper`, …) and
 * devcontainer's `initializeCommand` and friends, GitHub Copilot's `bash` and `powershell` hooks.
 */
const COMMAND_KEY =
  /^(?:command|args|cmd|program|bash|powershell|\w*Command|\w*Helper|awsAuthRefresh|awsCredentialExport)$/i;

/** Script-like file names: a word with an extension (`format.sh`, `server.mjs`). */
const HAS_EXTENSION = /[^./]\.[A-Za-z0-9]+$/;

/** The variables agents and editors set to the project directory in a command line. */
const PROJECT_VARIABLES =
  /\$\{?(?:CLAUDE_PROJECT_DIR|GATEHOUSE_PROJECT_DIR|CURSOR_PROJECT_DIR|GEMINI_PROJECT_DIR)\}?|\$\{workspaceFolder\}|\$\{workspaceRoot\}/g;

/** Every string under a command key, at any depth of a parsed JSON value. */
function commandStrings(value: unknown, underCommand: boolean, out: string[]): string[] {
  if (typeof value === "string") {
    if (underCommand) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) commandStrings(item, underCommand, out);
  } else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) commandStrings(inner, underCommand || COMMAND_KEY.test(key), out);
  }
  return out;
}

/** Of a tasks file, only the tasks that run by themselves when the folder opens (the rest run when asked). */
function automatic(file: string, config: unknown): unknown {
  if (!file.endsWith("tasks.json")) return config;
  const tasks = (config as { tasks?: unknown } | undefined)?.tasks;
  if (!Array.isArray(tasks)) return undefined;
  return tasks.filter((t) => (t as { runOptions?: { runOn?: unknown } } | null)?.runOptions?.runOn === "folderOpen");
}

function readJson(file: string): unknown {
  try {
    // JSON with comments (VS Code's tasks.json, devcontainer.json): drop whole-line comments.
    const text = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GitHub Copilot's hook files: every `.github/hooks/*.json` (their commands are under `bash` and `powershell`). */
function copilotHooks(root: string): string[] {
  const dir = path.join(root, ".github", "hooks");
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** The words of a command line that may name a file: quotes stripped, project variables expanded. */
function words(line: string, root: string): string[] {
  return line
    .replaceAll(PROJECT_VARIABLES, root)
    .split(/[\s;&|<>()=`]+/)
    .map((word) => word.replaceAll(/["']/g, ""))
    .filter((word) => word.length > 0 && !word.startsWith("-") && !word.startsWith("$"));
}

function inside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * The files inside the workspace roots that another agent's or editor's configuration names in a
 * command it runs by itself (`"command": "$CLAUDE_PROJECT_DIR/.claude/hooks/format.sh"`,
 * `"args": ["./tools/mcp-server.mjs"]`), as absolute paths: writing one is running code outside
 * any sandbox the next time that agent runs the command. A word counts when it resolves inside a
 * root and has a folder part or an extension (so `node` or `npm` in `node x.mjs` name nothing).
 * Contract: reads each root's configuration files and the user's, and the hooks and `!` commands of
 * the Claude Code skills, subagents and slash commands of each root and the home (missing or
 * unparsable ones name nothing); what a named script loads by itself is not followed.
 */
export function agentCommandFiles(
  roots: readonly string[],
  options: { home: string; gatehouseHome?: string | undefined; managedSettings?: string | undefined },
): string[] {
  const { home } = options;
  const found = new Set<string>();
  const user = [
    ...USER_CONFIGS.map((f) => path.join(home, f)),
    ...(options.gatehouseHome ? [path.join(options.gatehouseHome, "settings.json")] : []),
    ...(options.managedSettings && path.isAbsolute(options.managedSettings) ? [options.managedSettings] : []),
  ];
  // Skills, subagents and slash commands (the project's and the user's): their hooks and `!` commands.
  const markdown = [home, ...roots].flatMap((base) => agentMarkdownCommands(base));
  for (const root of roots) {
    const lines = [PROJECT_CONFIGS.map((f) => path.join(root, f)), copilotHooks(root), user]
      .flat()
      .flatMap((config) => commandStrings(automatic(config, readJson(config)), false, []));
    for (const line of [...lines, ...markdown]) {
      for (const word of words(line, root)) {
        if (!word.includes("/") && !HAS_EXTENSION.test(word)) continue;
        const spelled = word === "~" || word.startsWith("~/") ? path.join(home, word.slice(1)) : word;
        const file = path.resolve(root, spelled);
        if (inside(root, file)) found.add(file);
      }
    }
  }
  return [...found];
}
