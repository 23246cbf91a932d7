import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { AgentHookSettings } from "@gatehouse/host/hook-plan";
import type { ToolEffect } from "@gatehouse/sdk";
import { patchTargets, patchText } from "./apply-patch.ts";
import type { HookPayload } from "./hook-payload.ts";
import { importReads, textAfter } from "./memory-imports.ts";

/** How a tool was mapped: its kind decides what a decision can guarantee. */
export type MappingKind = "file" | "shell" | "search" | "mapped" | "internal" | "unmapped";

/** A tool call in Gatehouse's terms. */
export interface MappedCall {
  effects: ToolEffect[];
  kind: MappingKind;
  /** A content search of a whole tree (Claude Code's `Grep`): its root and file globs. */
  search?: { root: string; globs: string[] };
}

/**
 * Tools of the agents that touch no path and run nothing (their own bookkeeping and questions).
 * `Skill`, `SlashCommand` and `Task` load a skill, command or subagent whose hooks and `!` commands
 * the agent runs itself: their files are write-protected (protected-paths' defaults), so what they
 * run is the user's.
 */
const INTERNAL = new Set([
  "Task",
  "Agent",
  "TodoWrite",
  "TodoRead",
  "ExitPlanMode",
  "AskUserQuestion",
  "Skill",
  "SlashCommand",
  "BashOutput",
  "KillShell",
  "KillBash",
  "TaskOutput",
  "TaskStop",
  "ListMcpResourcesTool",
  "WebSearch",
  "update_plan",
  "view_image",
]);

const WINDOWS_PATH = /^(?:[A-Za-z]:[\\/]|\\\\|[A-Za-z]:$)/;

function fail(message: string): never {
  throw new Error(message);
}

/**
 * The one value an input gives under any of `keys` (the names different agents and versions use for
 * the same argument: `command`/`cmd`, `workdir`/`cwd`). Two of them with different values are
 * refused: the agent runs the one its own schema knows (and drops the other), which need not be
 * the one checked.
 */
function oneOf(input: Record<string, unknown>, keys: readonly string[], tool: string): unknown {
  const given = keys.filter((key) => input[key] !== undefined && input[key] !== null);
  const [first, ...rest] = given;
  if (first === undefined) return undefined;
  const value = input[first];
  for (const key of rest) {
    if (JSON.stringify(input[key]) !== JSON.stringify(value)) {
      fail(`${tool} gives both ${first} and ${key}, with different values; the agent runs only one of them: give one`);
    }
  }
  return value;
}

/**
 * An agent's path argument as an absolute path: relative ones resolve against the agent's cwd,
 * `~/…` against the home directory.
 * A Windows path (drive letter or UNC) on another system is refused: Node would take it for a
 * relative file name, and policy would check a different file from the one the agent means.
 */
export function agentPath(value: unknown, what: string, cwd: string): string {
  if (typeof value !== "string" || value === "") fail(`${what} must be a non-empty string`);
  // Claude Code trims a path before it opens it: `.git/config ` would be checked as another file.
  if (value !== value.trim()) {
    fail(
      `${what} ${JSON.stringify(value)} starts or ends with white space, which the agent's tools remove; spell the path without it`,
    );
  }
  if (process.platform !== "win32" && (WINDOWS_PATH.test(value) || WINDOWS_PATH.test(cwd))) {
    fail(`${what} ${JSON.stringify(value)} is a Windows path, which this ${process.platform} host cannot check`);
  }
  // `~` is the home directory wherever a tool expands it: check that file (a literal `~` folder
  // in the cwd would be a write inside the workspace, which the home spelling covers less loosely).
  if (value === "~" || value.startsWith("~/")) return join(homedir(), value.slice(1));
  return isAbsolute(value) ? value : resolve(cwd, value);
}

/** The longest leading part of a glob pattern without glob characters (the folder it searches from). */
function staticPrefix(pattern: string): string {
  const parts = pattern.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?[\]{}!]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.join("/") || ".";
}

/** True when a glob may name `..` beyond its fixed start (a segment of brackets, braces or wildcards that can be `..`). */
function hiddenClimb(pattern: string): boolean {
  const parts = pattern.split("/");
  const firstMagic = parts.findIndex((part) => /[*?[\]{}!]/.test(part));
  if (firstMagic === -1) return false;
  if (/\{[^}]*\.\./.test(pattern)) return true;
  return parts.slice(firstMagic).some((part) => part === ".." || (/^(\[[^\]]*\]|[.?])+$/.test(part) && part !== "."));
}

function searchEffects(input: Record<string, unknown>, cwd: string, name: string): ToolEffect[] {
  const base = input.path === undefined || input.path === null ? cwd : agentPath(input.path, `${name}.path`, cwd);
  const effects: ToolEffect[] = [{ kind: "read", path: base }];
  const pattern = input.pattern;
  // A climb the fixed start does not show (`s*/../../x`, `{..,a}/x`, `[.][.]/x`) cannot be checked.
  if (name === "Glob" && typeof pattern === "string" && hiddenClimb(pattern)) {
    fail(
      `${name}.pattern ${JSON.stringify(pattern)} may climb out of its folder after a wildcard, brace or bracket; start it with the folder it searches`,
    );
  }
  // Glob patterns may reach elsewhere on their own (`/etc/**`, `../../x/*`): check their fixed start too.
  if (
    name === "Glob" &&
    typeof pattern === "string" &&
    (pattern.startsWith("/") || pattern.startsWith("~") || pattern.split("/").includes(".."))
  ) {
    const start = staticPrefix(pattern);
    const home = start === "~" || start.startsWith("~/") ? join(homedir(), start.slice(1)) : undefined;
    effects.push({ kind: "read", path: home ?? resolve(base, start) });
  }
  return effects;
}

function shellCommand(command: unknown, what: string): string {
  if (typeof command === "string") return command;
  if (Array.isArray(command) && command.every((part) => typeof part === "string")) {
    return command
      .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`))
      .join(" ");
  }
  fail(`${what} must be a string`);
}

/** A shell command as the analyzer should see it: run from the agent's cwd, wherever the project is. */
/** A command that is only Codex's patch tool run from the shell: `apply_patch <<'EOF' … EOF` or its argv form. */
// The delimiter must be quoted: in an unquoted here-document the shell expands `$(…)` in the patch.
const SHELL_PATCH_HEAD = /^\s*(?:apply_patch|applypatch)\s+<<(-?)\s*(['"])([\w.-]+)\2[ \t]*\r?\n/;

/**
 * True when `command` is `apply_patch <<'EOF'` and its here-document and nothing else: the
 * document ends at the first line that is exactly the delimiter (as bash ends it), and only
 * white space may follow. Anything after that line would run as commands of its own.
 */
function onlyShellPatch(command: string): boolean {
  const head = SHELL_PATCH_HEAD.exec(command);
  if (!head) return false;
  const strip = head[1] === "-";
  const delimiter = head[3] as string;
  const lines = command.slice(head[0].length).split(/\r?\n/);
  const end = lines.findIndex((line) => (strip ? line.replace(/^\t+/, "") : line) === delimiter);
  return end !== -1 && lines.slice(end + 1).every((line) => line.trim() === "");
}

/** The patch of a shell call that only applies a patch (Codex applies it itself), or `undefined`. */
function shellPatch(command: unknown): string | undefined {
  if (Array.isArray(command)) {
    const [program, patch, ...rest] = command;
    const name = typeof program === "string" ? program.split("/").at(-1) : undefined;
    // Codex wraps commands in `bash -lc SCRIPT`: a script that only applies a patch counts too.
    const shell = name === "bash" || name === "sh" || name === "zsh";
    if (shell && typeof patch === "string" && /^-[a-z]*c$/.test(patch) && rest.length === 1) return shellPatch(rest[0]);
    const tool = name === "apply_patch" || name === "applypatch";
    return tool && typeof patch === "string" && rest.length === 0 ? patch : undefined;
  }
  return typeof command === "string" && onlyShellPatch(command) ? command : undefined;
}

function execEffects(command: string, cwd: string, projectDir: string): ToolEffect[] {
  const where = cwd === projectDir ? command : `cd '${cwd.replaceAll("'", `'\\''`)}' && ${command}`;
  const effects: ToolEffect[] = [{ kind: "exec", command: where }];
  // A patch applied through the shell (`apply_patch <<'EOF'`) is checked like the apply_patch tool.
  if (command.includes("*** Begin Patch")) effects.push(...patchEffects(command, cwd));
  return effects;
}

/**
 * What a patch touches: every file it adds, updates, deletes or moves to is written; a file it
 * updates is read too (its lines go into the result, or to where `Move to` puts them).
 */
function patchEffects(envelope: string, cwd: string): ToolEffect[] {
  return patchTargets(envelope).flatMap((t): ToolEffect[] => {
    const path = agentPath(t.path, `patch file ${t.path}`, cwd);
    return t.op === "update"
      ? [
          { kind: "write", path },
          { kind: "read", path },
        ]
      : [{ kind: "write", path }];
  });
}

function valuesAt(input: Record<string, unknown>, key: string): unknown[] {
  let value: unknown = input;
  for (const part of key.split(".")) {
    if (value === null || typeof value !== "object") return [];
    value = (value as Record<string, unknown>)[part];
  }
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function mappedEffects(
  mapping: NonNullable<AgentHookSettings["tools"]>[string],
  input: Record<string, unknown>,
  cwd: string,
  name: string,
): ToolEffect[] {
  const effects: ToolEffect[] = [];
  for (const kind of ["read", "write"] as const) {
    for (const key of mapping[kind] ?? []) {
      for (const value of valuesAt(input, key)) effects.push({ kind, path: agentPath(value, `${name}.${key}`, cwd) });
    }
  }
  for (const key of mapping.exec ?? []) {
    for (const value of valuesAt(input, key))
      effects.push({ kind: "exec", command: shellCommand(value, `${name}.${key}`) });
  }
  return effects;
}

/**
 * Maps one tool call of Claude Code or Codex onto Gatehouse effects, the terms every guard decides
 * in. Claude Code: Read `file_path`; Write `file_path` (read too when it exists); Edit/MultiEdit
 * `file_path` and NotebookEdit `notebook_path`, written and read; Glob/Grep/LS `path` (default: the
 * cwd), Bash `command`, WebFetch `url`. Codex: Bash `command` (string or
 * argv), apply_patch `command` (the patch envelope: every added, updated, deleted and moved-to
 * file). `agentHooks.tools` maps any other tool (MCP tools `mcp__<server>__<tool>` included) by
 * the names of its path arguments (every settings level's mappings added up); it adds to the
 * built-in table, so a team can map more strictly. Unmapped tools have no path effects (the audit still records them).
 * Contract: throws when a known tool's input is malformed (a path that is not a string, a patch
 * without files): the caller refuses such calls.
 */
export function mapAgentCall(payload: HookPayload, settings: AgentHookSettings, projectDir: string): MappedCall {
  const builtIn = builtInCall(payload, projectDir);
  const tools = settings.tools;
  // Own names only: a tool called "constructor" must not find Object.prototype's.
  const mapping = tools && Object.hasOwn(tools, payload.toolName) ? tools[payload.toolName] : undefined;
  if (!mapping) return builtIn;
  const effects = [...builtIn.effects, ...mappedEffects(mapping, payload.toolInput, payload.cwd, payload.toolName)];
  const unknown = builtIn.kind === "unmapped" || builtIn.kind === "internal";
  return { ...builtIn, effects, kind: unknown ? "mapped" : builtIn.kind };
}

/** The tools the agents run shell commands with, and the arguments holding the command: the audit never records these verbatim. */
export const SHELL_TOOLS = ["Bash", "shell", "exec_command", "local_shell"] as const;

/** See `SHELL_TOOLS`. */
export const SHELL_COMMAND_KEYS = ["command", "cmd"];

function builtInCall(payload: HookPayload, projectDir: string): MappedCall {
  const { toolName: name, toolInput: input, cwd } = payload;
  switch (name) {
    case "Read":
    case "NotebookRead":
      return {
        effects: [
          {
            kind: "read",
            path: agentPath(oneOf(input, ["file_path", "notebook_path"], name), `${name}.file_path`, cwd),
          },
        ],
        kind: "file",
      };
    case "Write": {
      // Replacing a file shows the agent what changed: a file it may not read must not be replaced.
      const path = agentPath(input.file_path, `${name}.file_path`, cwd);
      const existing = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
      const effects: ToolEffect[] = [{ kind: "write", path }];
      if (existing) effects.push({ kind: "read", path });
      // Claude Code reads what the text imports (`@.env`) by itself when it loads the file.
      effects.push(...importReads(textAfter(name, input, path), path));
      return { effects, kind: "file" };
    }
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit": {
      // An edit reads the file it changes (its result shows the edited lines), as Gatehouse's own edit does.
      const key = name === "NotebookEdit" ? "notebook_path" : "file_path";
      const path = agentPath(input[key], `${name}.${key}`, cwd);
      const imports = name === "NotebookEdit" ? [] : importReads(textAfter(name, input, path), path);
      return {
        effects: [{ kind: "write", path }, { kind: "read", path }, ...imports],
        kind: "file",
      };
    }
    case "Glob":
    case "LS":
      return { effects: searchEffects(input, cwd, name), kind: "search" };
    case "Grep": {
      // Grep reads the contents of every file below its root that ripgrep does not skip.
      const effects = searchEffects(input, cwd, name);
      const glob = input.glob;
      if (glob !== undefined && glob !== null && typeof glob !== "string") fail("Grep.glob must be a string");
      const globs = typeof glob === "string" ? [glob] : [];
      return { effects, kind: "search", search: { root: (effects[0] as { path: string }).path, globs } };
    }
    case "Bash":
    case "shell":
    case "exec_command":
    case "local_shell": {
      const given = oneOf(input, SHELL_COMMAND_KEYS, name);
      // Nothing but a patch: decided by the files it names, as the apply_patch tool (the program runs no other code).
      // Codex's shell tools take the directory to run in (`workdir`): paths in the command are relative to it.
      const dir = oneOf(input, ["workdir", "cwd"], name);
      const runIn = dir === undefined || dir === null ? cwd : agentPath(dir, `${name}.workdir`, cwd);
      const patch = shellPatch(given);
      if (patch !== undefined) return { effects: patchEffects(patch, runIn), kind: "file" };
      return { effects: execEffects(shellCommand(given, `${name}.command`), runIn, projectDir), kind: "shell" };
    }
    case "apply_patch": {
      const envelope = patchText(oneOf(input, ["command", "patch", "input"], name));
      if (envelope === undefined) fail("apply_patch.command must hold the patch envelope");
      return { effects: patchEffects(envelope, cwd), kind: "file" };
    }
    case "WebFetch":
      return { effects: typeof input.url === "string" ? [{ kind: "net", url: input.url }] : [], kind: "internal" };
    default:
      return { effects: [], kind: INTERNAL.has(name) ? "internal" : "unmapped" };
  }
}
