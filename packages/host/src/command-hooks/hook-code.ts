import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { LocatedHookGroup } from "../config/merge-settings.ts";
import { COMMAND_HOOK_EVENTS, type CommandHookEvent } from "../config/settings-schema.ts";
import type { ImportGraph } from "../extensions/import-graph.ts";

/** The key of the project's command hooks in the trust store (no extension entry can be named so). */
export const PROJECT_HOOKS_KEY = "#hooks";

/** The levels whose hooks are project code (trust needed) and those that are not (managed, user). */
export const PROJECT_LEVELS: ReadonlySet<string> = new Set(["project", "projectLocal"]);

/** The groups of some levels, per event. */
export function groupsAt(
  hooks: Readonly<Record<CommandHookEvent, readonly LocatedHookGroup[]>>,
  project: boolean,
): Record<CommandHookEvent, LocatedHookGroup[]> {
  return Object.fromEntries(
    COMMAND_HOOK_EVENTS.map((event) => [event, hooks[event].filter((g) => PROJECT_LEVELS.has(g.level) === project)]),
  ) as Record<CommandHookEvent, LocatedHookGroup[]>;
}

/** Whether any event has a group. */
export function hasHooks(groups: Readonly<Record<CommandHookEvent, readonly LocatedHookGroup[]>>): boolean {
  return COMMAND_HOOK_EVENTS.some((event) => groups[event].length > 0);
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The words of a command line that may name a file (quotes stripped, the project variables expanded). */
function words(line: string, project: string): string[] {
  return line
    .replaceAll(/\$\{?(CLAUDE_PROJECT_DIR|GATEHOUSE_PROJECT_DIR)\}?/g, project)
    .split(/[\s;&|<>()]+/)
    .map((word) => word.replaceAll(/["']/g, ""))
    .filter((word) => word.length > 0 && !word.startsWith("-"));
}

/**
 * What `gatehouse trust` records for the project's command hooks: the settings files that
 * define them and every project file their command lines name (`python3 .gatehouse/hooks/x.py`,
 * `"$CLAUDE_PROJECT_DIR"/scripts/fmt.sh`), so editing a hook script needs trust again. Files a
 * script loads by itself are not followed (the hook runs under the bash sandbox's rules anyway).
 * Contract: `undefined` when the project's settings define no command hook; touches nothing.
 */
export function projectHooksCode(
  hooks: Readonly<Record<CommandHookEvent, readonly LocatedHookGroup[]>>,
  projectDir: string,
): ImportGraph | undefined {
  const groups = groupsAt(hooks, true);
  if (!hasHooks(groups)) return undefined;
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const project = real(projectDir) ?? resolve(projectDir);
  const files = new Set<string>();
  for (const event of COMMAND_HOOK_EVENTS) {
    for (const group of groups[event]) {
      const settings = real(group.file);
      if (settings) files.add(settings);
      for (const hook of group.hooks) {
        for (const word of words([hook.command, ...(hook.args ?? [])].join(" "), project)) {
          const file = real(isAbsolute(word) ? word : join(project, word));
          if (file && inside(file, project) && statSync(file).isFile()) files.add(file);
        }
      }
    }
  }
  return { files: [...files], links: [], linkTargets: [], problems: [] };
}
