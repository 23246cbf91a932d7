import { editDistance } from "../common/edit-distance.ts";
import type { SettingsLocation } from "../config/extension-specs.ts";
import { isAtLeastAsStrong, type SettingsLevel, type SettingsLevelName } from "../config/settings-levels.ts";
import { type DiscoveredExtension, levelOf } from "./discovery.ts";
import { namesInSpec } from "./guard-names.ts";

/** Whether an extension is on, turned off by a `disabledExtensions` entry, or refused because one may not turn it off. */
export type DisableVerdict =
  | { kind: "on" }
  | { kind: "off"; at: SettingsLocation }
  | { kind: "refused"; reason: string };

/**
 * Who stands behind a level when it comes to guards: managed settings (the team lead) over the
 * user's own settings over the project's files (committed or local: both lie in the workspace the
 * model writes to). Not PRECEDENCE, where a project's value wins over the user's.
 */
const AUTHORITY: Record<SettingsLevelName, number> = { managed: 3, user: 2, projectLocal: 1, project: 1 };

const WORDS: Record<SettingsLevelName, string> = {
  managed: "managed settings",
  projectLocal: "project local settings",
  project: "project settings",
  user: "user settings",
};

/**
 * The names a `disabledExtensions` entry may use for an extension: the spec as written, the name it
 * falls back to, and its package name with or without the scope (`protected-paths` turns off
 * `@gatehouse/protected-paths`, as `tool-audit` does `@gatehouse/tool-audit@1`).
 */
function namesOf(d: DiscoveredExtension): Set<string> {
  const names = new Set([d.source, d.fallbackName]);
  if (d.enabledAt.kind === "settings") for (const name of namesInSpec(d.source)) names.add(name);
  return names;
}

/**
 * Decides `disabledExtensions` for one discovered extension.
 * Contract: an entry counts only from the level the extension was listed at or a stronger one
 * (PRECEDENCE: a project cannot turn off a managed extension). An extension that a level of more
 * authority enables (managed over user over the project's files; the user's folder counts as user
 * settings) cannot be turned off from below, guard or not: which extensions block calls is known
 * only once they run, and a drop-in in `~/.gatehouse/extensions/` is typically one. Such an entry
 * is `refused`, naming its file, line and column and the level that enables the extension, so the
 * run stops instead of going on without it.
 */
export function disableVerdict(d: DiscoveredExtension, levels: readonly SettingsLevel[]): DisableVerdict {
  const names = namesOf(d);
  const entries = levels.flatMap((level) =>
    (level.settings.disabledExtensions ?? []).flatMap((entry, index) => {
      if (!names.has(entry)) return [];
      const { line, column } = level.source.locate(["disabledExtensions", index]);
      return [{ entry, at: { level: level.level, file: level.file, line, column } satisfies SettingsLocation }];
    }),
  );
  if (entries.length === 0) return { kind: "on" };
  const origin = levelOf(d.origin);
  const enablers = d.enabledBy ?? [origin];
  const what = d.required ? "a guard" : "an extension";
  for (const { entry, at } of entries) {
    const above = enablers.find((level) => AUTHORITY[level] > AUTHORITY[at.level]);
    if (!above) continue;
    const file = levels.find((l) => l.level === above)?.file;
    const folder =
      d.origin === "user-folder" && d.enabledAt.kind === "folder" ? ` (the folder ${d.enabledAt.dir})` : "";
    const source = folder || (file ? ` (${file})` : "");
    return {
      kind: "refused",
      reason: `disabledExtensions entry ${JSON.stringify(entry)} at ${at.file}:${at.line}:${at.column} (${WORDS[at.level]}) turns off ${what} that ${WORDS[above]}${source} enable: ${WORDS[at.level]} cannot turn off what ${WORDS[above]} enable (an extension there may be a guard); remove the entry`,
    };
  }
  const effective = entries.find(({ at }) => isAtLeastAsStrong(at.level, origin));
  return effective ? { kind: "off", at: effective.at } : { kind: "on" };
}

/** How many edits away an entry may be from an extension's name to count as its typo (ignoring case). */
const TYPO_DISTANCE = 2;

/**
 * `disabledExtensions` entries that turn off nothing: `"helo-tool"` leaves `hello-tool` running
 * while the settings read as if it were off. Returns one `file:line:column: …` line per entry.
 * Contract: an entry counts when it is none of the names of any discovered extension (`namesOf`);
 * in the project's files every such entry counts; in user and managed settings, which serve every
 * project, only one within two edits of such a name (ignoring case).
 */
export function strayDisableEntries(
  levels: readonly SettingsLevel[],
  discovered: readonly DiscoveredExtension[],
): string[] {
  const names = [...new Set(discovered.flatMap((d) => [...namesOf(d)]))].sort();
  const problems: string[] = [];
  for (const level of levels) {
    const shared = AUTHORITY[level.level] > AUTHORITY.project;
    (level.settings.disabledExtensions ?? []).forEach((entry, index) => {
      if (names.includes(entry)) return;
      const near = names.find(
        (n) => editDistance(entry.toLowerCase(), n.toLowerCase(), TYPO_DISTANCE) <= TYPO_DISTANCE,
      );
      if (shared && near === undefined) return;
      const { line, column } = level.source.locate(["disabledExtensions", index]);
      const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
      const known = names.length === 0 ? "none is enabled" : `enabled: ${names.join(", ")}`;
      problems.push(
        `${level.file}:${line}:${column}: disabledExtensions entry ${JSON.stringify(entry)} turns off no extension${hint}; a misspelt entry leaves its extension running (${known})`,
      );
    });
  }
  return problems;
}
