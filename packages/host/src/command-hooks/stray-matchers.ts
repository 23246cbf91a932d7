import { editDistance } from "../common/edit-distance.ts";
import { locationOf } from "../config/extension-specs.ts";
import type { MergedSettings } from "../config/merge-settings.ts";
import { COMMAND_HOOK_EVENTS } from "../config/settings-schema.ts";
import { claudeToolName } from "./claude-view.ts";
import { exactNames, matchesTool } from "./matcher.ts";

/** How many edits away a name may be from a tool's to count as its typo (ignoring case). */
const TYPO_DISTANCE = 2;

/** Levels whose hooks serve every project: a hook for a tool only some projects have is normal there. */
const SHARED_LEVELS: ReadonlySet<string> = new Set(["user", "managed"]);

function nearest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return known.find((k) => editDistance(lower, k.toLowerCase(), TYPO_DISTANCE) <= TYPO_DISTANCE);
}

/**
 * Command-hook matchers that select no tool: `"Bsh"`, or `"Edti"` in `"Write|Edti"`, leaves a hook
 * that never runs — a validator switched off by a typo while the settings look guarded. Returns one
 * `file:line:column: …` line per such matcher.
 * Contract: `tools` are the host's tool names (each also counts under its Claude Code name, `Bash`
 * for `bash`); a name list is judged name by name, a regular expression as a whole. In the
 * project's files every name (and every expression) that selects no tool counts, unless `unsure`
 * (an extension did not load, so its tools are unknown); in user and managed settings, and when
 * `unsure`, only names within two edits of a tool's (ignoring case) count.
 */
export function strayHookMatchers(settings: MergedSettings, tools: readonly string[], unsure: boolean): string[] {
  const known = [...new Set(tools.flatMap((name) => [claudeToolName(name), name]))].sort();
  const problems: string[] = [];
  for (const event of COMMAND_HOOK_EVENTS) {
    for (const group of settings.hooks[event]) {
      const { matcher } = group;
      if (matcher === undefined || matcher === "" || matcher === "*") continue;
      const lenient = unsure || SHARED_LEVELS.has(group.level);
      const names = exactNames(matcher);
      const stray: { name: string; near: string | undefined }[] = [];
      if (names) {
        for (const name of names) {
          if (name === "" || known.includes(name)) continue;
          const near = nearest(name, known);
          if (!lenient || near !== undefined) stray.push({ name, near });
        }
      } else if (!lenient && !known.some((name) => matchesTool(matcher, name))) {
        stray.push({ name: matcher, near: undefined });
      }
      if (stray.length === 0) continue;
      const level = settings.levels.find((l) => l.level === group.level && l.file === group.file);
      const at = level ? locationOf(level, ["hooks", event, group.index, "matcher"]) : undefined;
      const where = at ? `${at.file}:${at.line}:${at.column}` : group.file;
      const field = `${where}: hooks.${event}[${group.index}].matcher ${JSON.stringify(matcher)}`;
      const offered = `(tools: ${known.join(", ")})`;
      if (!names) {
        problems.push(`${field} selects no tool, so its hook would never run ${offered}`);
        continue;
      }
      const what = stray
        .map(
          (s) => `${JSON.stringify(s.name)}${s.near === undefined ? "" : ` (did you mean ${JSON.stringify(s.near)}?)`}`,
        )
        .join(", ");
      const one = stray.length === 1;
      problems.push(
        `${field}: ${what} ${one ? "names" : "name"} no tool, so its hook would never run for ${one ? "it" : "them"} ${offered}`,
      );
    }
  }
  return problems;
}
