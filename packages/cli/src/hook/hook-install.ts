import { homedir } from "node:os";
import { join } from "node:path";
import { findDuplicateKey, GatehouseError } from "@gatehouse/host";
import { readEditable, writeEditable } from "../edit-file.ts";
import { CA_CERTS_PREFIX } from "./ca-certs.ts";
import type { HookAgent } from "./hook-payload.ts";

/** Where an agent keeps its hooks, and which events Gatehouse listens to there. */
interface AgentSettings {
  file: string;
  events: readonly string[];
  /** What the person must do before the agent runs the new hooks. */
  trustStep: string;
}

/** What `installHooks` changed, line by line, for the person to read. */
export interface InstallReport {
  file: string;
  changes: string[];
  trustStep: string;
}

const EVENTS: Record<HookAgent, readonly string[]> = {
  "claude-code": ["PreToolUse", "PostToolUse", "PostToolUseFailure"],
  codex: ["PreToolUse", "PostToolUse"],
};

/** The agent's settings file for the project or the user. */
export function agentSettings(options: {
  agent: HookAgent;
  scope: "project" | "user";
  projectDir: string;
  env: NodeJS.ProcessEnv;
}): AgentSettings {
  const home = options.env.HOME ?? homedir();
  if (options.agent === "claude-code") {
    const dir =
      options.scope === "user"
        ? (options.env.CLAUDE_CONFIG_DIR ?? join(home, ".claude"))
        : join(options.projectDir, ".claude");
    return {
      file: join(dir, "settings.json"),
      events: EVENTS["claude-code"],
      trustStep:
        "Claude Code reads hooks when a session starts: restart it (or review them in /hooks). In a new project folder it first asks you to trust the folder.",
    };
  }
  const dir =
    options.scope === "user" ? (options.env.CODEX_HOME ?? join(home, ".codex")) : join(options.projectDir, ".codex");
  return {
    file: join(dir, "hooks.json"),
    events: EVENTS.codex,
    trustStep:
      "Codex runs a new or changed hook only after you review it: open Codex and approve Gatehouse's hooks in /hooks (until then Codex skips them without a word).",
  };
}

/**
 * The command an agent runs. `|| exit 2` turns every failure of the command itself — gatehouse
 * not on the PATH (127), a crash (1) — into the one exit code both agents treat as blocking, with
 * the shell's or Node's message on stderr; a deliberate refusal exits 2 and stays one. On POSIX
 * shells the command starts Node without NODE_EXTRA_CA_CERTS (see ca-certs.ts): a decision makes
 * no TLS connection, and parsing the certificates would be most of its time.
 */
export function hookCommand(agent: HookAgent, gatehouse = "gatehouse", platform = process.platform): string {
  const command = `${gatehouse} hook ${agent} || exit 2`;
  return platform === "win32" ? command : `${CA_CERTS_PREFIX} ${command}`;
}

/** Whether a hook command is one Gatehouse installed for `agent` (whatever path it was installed with). */
export function isGatehouseHook(command: unknown, agent: HookAgent): boolean {
  return (
    typeof command === "string" &&
    new RegExp(`(^|[\\s/"'])gatehouse(\\.js)?["']?\\s+hook\\s+${agent}(\\s|$)`).test(command)
  );
}

type Json = Record<string, unknown>;

function readSettings(file: string): Json {
  const text = readEditable(file);
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GatehouseError(
      "GH_JSON_SYNTAX",
      `${file}: not valid JSON (${(error as Error).message}); fix it first, nothing was changed`,
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new GatehouseError("GH_SETTINGS_INVALID", `${file}: expected a JSON object; nothing was changed`);
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate) {
    const line = text.slice(0, duplicate.offset).split("\n").length;
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `${file}:${line}: key ${JSON.stringify(duplicate.key)} appears twice in one object (rewriting the file would keep only the last); nothing was changed`,
    );
  }
  return value as Json;
}

function groupsOf(hooks: Json, event: string, file: string): Json[] {
  const groups = hooks[event] ?? [];
  if (!Array.isArray(groups))
    throw new GatehouseError("GH_SETTINGS_INVALID", `${file}: hooks.${event} is not a list; nothing was changed`);
  return groups as Json[];
}

/**
 * Adds (or with `uninstall` removes) Gatehouse's hook entries in an agent's settings file.
 * Contract: every other key, event and hook is kept as it was; an entry Gatehouse installed before
 * is updated in place, never duplicated; uninstall removes exactly the entries whose command runs
 * `gatehouse hook <agent>`, and the groups and events that only held them. A file that is not a
 * JSON object, not valid UTF-8, or not a regular file (a FIFO, a folder) is refused untouched. The
 * file is replaced atomically (write, then rename); a link is written through to its target.
 */
export function installHooks(options: {
  agent: HookAgent;
  settings: AgentSettings;
  command: string;
  uninstall: boolean;
}): InstallReport {
  const { agent, settings, command } = options;
  const root = readSettings(settings.file);
  const hooksValue = root.hooks ?? {};
  if (hooksValue === null || typeof hooksValue !== "object" || Array.isArray(hooksValue)) {
    throw new GatehouseError("GH_SETTINGS_INVALID", `${settings.file}: "hooks" is not an object; nothing was changed`);
  }
  const hooks = hooksValue as Json;
  const changes: string[] = [];
  for (const event of settings.events) {
    const groups = groupsOf(hooks, event, settings.file);
    let found = false;
    const kept: Json[] = [];
    for (const group of groups) {
      const list = Array.isArray(group?.hooks) ? (group.hooks as Json[]) : undefined;
      if (!list) {
        kept.push(group);
        continue;
      }
      const ours = list.filter((h) => isGatehouseHook(h?.command, agent));
      if (ours.length === 0) {
        kept.push(group);
        continue;
      }
      if (options.uninstall || found) {
        changes.push(`- ${event}: ${String(ours[0]?.command)}`);
        const rest = list.filter((h) => !isGatehouseHook(h?.command, agent));
        if (rest.length > 0) kept.push({ ...group, hooks: rest });
        continue;
      }
      found = true;
      const updated = list.map((h) => (isGatehouseHook(h?.command, agent) ? { ...h, command } : h));
      if (ours.some((h) => h.command !== command)) changes.push(`~ ${event}: ${command}`);
      kept.push({
        ...group,
        hooks: updated.filter(
          (h, i) =>
            !isGatehouseHook(h?.command, agent) || i === updated.findIndex((x) => isGatehouseHook(x?.command, agent)),
        ),
      });
    }
    if (!options.uninstall && !found) {
      kept.unshift({ hooks: [{ type: "command", command, timeout: 30 }] });
      changes.push(`+ ${event}: ${command}`);
    }
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (changes.length > 0) {
    if (Object.keys(hooks).length > 0) root.hooks = hooks;
    else delete root.hooks;
    writeEditable(settings.file, `${JSON.stringify(root, null, 2)}\n`);
  }
  return { file: settings.file, changes, trustStep: settings.trustStep };
}
