import { deepFreeze } from "../common/deep-freeze.ts";
import { collectExtensionSpecs, type ExtensionSpec, locationOf, type SettingsLocation } from "./extension-specs.ts";
import { type MergedValue, mergeValues, originOf } from "./merge-config.ts";
import { mergeModel } from "./merge-model.ts";
import type { LevelValue } from "./rule-merge.ts";
import {
  levelsByPrecedence,
  type SettingsLevel,
  type SettingsLevelName,
  type SettingsLevels,
} from "./settings-levels.ts";
import {
  AGENT_BASH_MODES,
  type AgentHookSettings,
  COMMAND_HOOK_EVENTS,
  type CommandHookEvent,
  type CommandHookGroup,
  type SettingsFile,
  type ToolExecutionMode,
} from "./settings-schema.ts";

/** One `hooks.<event>` group with the settings level and file it came from. */
export interface LocatedHookGroup extends CommandHookGroup {
  /** The level whose file listed it (project-level hooks run only in a trusted project). */
  readonly level: SettingsLevelName;
  readonly file: string;
  /** Its place in that file's list, for messages (`hooks.PreToolUse[1]`). */
  readonly index: number;
}

/** The effective settings of one project, with where each value came from. */
export interface MergedSettings {
  /** The settings files that were present, strongest first. */
  readonly levels: readonly SettingsLevel[];
  /** Every level's `extensions`, in load order, each with the file and directory it came from. */
  readonly extensions: readonly ExtensionSpec[];
  /** The merged per-extension sections, `config.<extension name>`; deeply frozen. */
  readonly config: Readonly<Record<string, unknown>>;
  /** How a batch of tool calls runs, if any level says. */
  readonly toolExecution: ToolExecutionMode | undefined;
  /** The handler timeout in milliseconds, if any level says. */
  readonly hookTimeoutMs: number | undefined;
  /** The argument size limit in bytes: the smallest any level sets (a limit only tightens). */
  readonly maxArgumentBytes: number | undefined;
  /** The `model` section, merged key by key (the strongest level that sets a key wins). */
  readonly model: NonNullable<SettingsFile["model"]>;
  /** Whether to hot-reload extensions, if any level says. */
  readonly watch: boolean | undefined;
  /** Command hooks per event: every level's groups, managed first, then project-local, project, user. */
  readonly hooks: Readonly<Record<CommandHookEvent, readonly LocatedHookGroup[]>>;
  /** The agent hooks' settings: every level's tool mappings added up; the strictest `bash`. */
  readonly agentHooks: AgentHookSettings;
  /** Which file, line and column provided `config.<name>` at `path` (see `mergeSettings`). */
  configSource(name: string, path: readonly (string | number)[]): SettingsLocation | undefined;
  /**
   * Every level's own `config.<name>`, strongest first, unmerged: what `api.config` validates level
   * by level and merges with the extension's rules (managed settings as a floor).
   */
  configLevels(name: string): LevelValue[];
}

/**
 * Merges the settings levels into the effective settings.
 * Contract — precedence is managed > projectLocal > project > user, and:
 * - Scalars (`toolExecution`, `hookTimeoutMs`, `watch`, and any non-object value in `config`): the
 *   strongest level that sets a value wins.
 * - `maxArgumentBytes`: the smallest value any level sets, so no level can raise a stronger one's limit.
 * - Objects (`config` and everything inside it): merged recursively key by key. Where levels disagree
 *   on the kind of value at a key, the strongest level's kind wins and the others' values at that key
 *   are ignored, except that objects from weaker levels still merge into a stronger object.
 * - Arrays under a key starting with `deny` (at any depth in `config`, e.g.
 *   `config["protected-paths"].denyWrite`): the union of every level's entries, strongest level's
 *   first, duplicates kept once. A weaker level can add denies, never remove a stronger level's.
 * - Other arrays: the strongest level that sets one wins whole; a weaker level cannot widen it
 *   (e.g. add `workspace` roots).
 * - `extensions`: the union in load order managed, project, projectLocal, user — SPEC §5 discovery
 *   order, deliberately not precedence; see `collectExtensionSpecs` for duplicates.
 * - `disabledExtensions` is not merged: the loader reads each level's entries (`disableVerdict` in
 *   extensions/disable-check.ts decides which may turn an extension off).
 * - Provenance: `configSource(name, path)` names the file, line and column of the value at
 *   `config.<name>.<path...>`: for an object, the strongest level that has one there; for a deny
 *   union entry, the level that listed it; a path below what exists resolves to the deepest value
 *   on the way (so a missing required key points at its section); `undefined` when no level has a
 *   `config.<name>` section.
 */
export function mergeSettings(levels: SettingsLevels): MergedSettings {
  const present = levelsByPrecedence(levels);
  const config = mergeConfig(present);
  return {
    levels: present,
    extensions: collectExtensionSpecs(levels),
    config: deepFreeze((config?.value ?? {}) as Record<string, unknown>),
    toolExecution: strongest(present, "toolExecution"),
    hookTimeoutMs: strongest(present, "hookTimeoutMs"),
    maxArgumentBytes: smallest(present.map((level) => level.settings.maxArgumentBytes)),
    watch: strongest(present, "watch"),
    hooks: mergeHooks(present),
    agentHooks: mergeAgentHooks(present),
    model: mergeModel(present),
    configLevels: (name) =>
      present.flatMap((level) => {
        const config = level.settings.config;
        return config !== undefined && Object.hasOwn(config, name) ? [{ level, value: config[name] }] : [];
      }),
    configSource(name, path) {
      if (config === undefined || !Object.hasOwn(config.value as object, name)) return undefined;
      const origin = originOf(config.provenance, [name, ...path]);
      return locationOf(origin.level, ["config", ...origin.path]);
    },
  };
}

function mergeConfig(present: readonly SettingsLevel[]): MergedValue | undefined {
  const sections = present.flatMap((level) =>
    level.settings.config === undefined ? [] : [{ level, value: level.settings.config }],
  );
  return sections.length === 0 ? undefined : mergeValues(sections);
}

/**
 * Hooks only add up: a weaker level can add hooks below a stronger level's, never remove or
 * replace them (managed hooks run first, whatever the levels below say).
 */
function mergeHooks(present: readonly SettingsLevel[]): Record<CommandHookEvent, LocatedHookGroup[]> {
  const merged = Object.fromEntries(COMMAND_HOOK_EVENTS.map((event) => [event, [] as LocatedHookGroup[]]));
  for (const level of present) {
    for (const event of COMMAND_HOOK_EVENTS) {
      (level.settings.hooks?.[event] ?? []).forEach((group, index) => {
        merged[event]?.push({ ...group, level: level.level, file: level.file, index });
      });
    }
  }
  return deepFreeze(merged) as Record<CommandHookEvent, LocatedHookGroup[]>;
}

type ToolMappings = NonNullable<AgentHookSettings["tools"]>;
const MAPPED_EFFECTS = ["read", "write", "exec"] as const;

/**
 * Every level's mappings of the tools, added up: per tool and kind of effect, the union of the
 * argument names every level lists (strongest level's first). A mapping only adds effects, so no
 * level can take away one another maps: a project's `{ "read": [] }` for a tool your user settings
 * map as writing `path` would otherwise replace that mapping and let the tool write anywhere.
 */
function mergeToolMappings(present: readonly SettingsLevel[]): ToolMappings {
  const tools: ToolMappings = {};
  for (const level of present) {
    const own = level.settings.agentHooks?.tools ?? {};
    for (const name of Object.keys(own)) {
      const mapping = own[name] as ToolMappings[string];
      const merged = Object.hasOwn(tools, name) ? (tools[name] as ToolMappings[string]) : {};
      for (const kind of MAPPED_EFFECTS) {
        const args = mapping[kind];
        if (args !== undefined) merged[kind] = [...new Set([...(merged[kind] ?? []), ...args])];
      }
      Object.defineProperty(tools, name, { value: merged, enumerable: true, writable: true, configurable: true });
    }
  }
  return tools;
}

/**
 * Tool mappings: every level's, added up (see `mergeToolMappings`; a mapping only adds effects to
 * the built-in table's). `bash`: the strictest mode any level sets; managed settings are a floor also
 * when they leave it unset (their default, "strict", then counts).
 */
function mergeAgentHooks(present: readonly SettingsLevel[]): AgentHookSettings {
  const tools = mergeToolMappings(present);
  const modes = present.flatMap((level) => {
    const mode = level.settings.agentHooks?.bash ?? (level.level === "managed" ? "strict" : undefined);
    return mode === undefined ? [] : [mode];
  });
  const bash = modes.sort((a, b) => AGENT_BASH_MODES.indexOf(b) - AGENT_BASH_MODES.indexOf(a))[0];
  return deepFreeze({ tools, ...(bash ? { bash } : {}) });
}

function smallest(values: readonly (number | undefined)[]): number | undefined {
  const set = values.filter((value): value is number => value !== undefined);
  return set.length === 0 ? undefined : Math.min(...set);
}

function strongest<Key extends "toolExecution" | "hookTimeoutMs" | "watch">(
  present: readonly SettingsLevel[],
  key: Key,
): SettingsFile[Key] {
  return present.find((level) => level.settings[key] !== undefined)?.settings[key];
}
