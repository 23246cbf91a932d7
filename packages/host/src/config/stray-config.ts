import { editDistance as distance } from "../common/edit-distance.ts";
import { locationOf } from "./extension-specs.ts";
import type { MergedSettings } from "./merge-settings.ts";

/** The extensions Gatehouse ships, by name: a shared level may configure them for the projects that enable them. */
const FIRST_PARTY_NAMES: readonly string[] = ["protected-paths", "tool-audit", "hello-tool"];

/** How many edits away a section name may be from a known extension's to count as its typo. */
const TYPO_DISTANCE = 2;

/**
 * A section name as a typo would bend it: case, a package scope and separators left out, so
 * `PROTECTED-PATHS`, `@gatehouse/protected-paths` and `protected_paths` all come near
 * `protected-paths` (each is several plain edits away).
 */
function looseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/^@[^/]*\//, "")
    .replace(/[^a-z0-9]/g, "");
}

/**
 * Configuration sections that name no extension: `config["protected-path"]` configures nothing,
 * and the guard it was meant for runs on its defaults — a policy switched off by a typo. Returns
 * one `file:line:column: …` line per such section, at any level (managed included).
 * Contract: `known` holds the names of every extension the settings enabled (loaded or not);
 * in project settings every unknown section counts, unless `unsure` (some extension could not be
 * loaded, so its name is unknown); in user and managed settings, and when `unsure`, only sections
 * within two edits of a known name, ignoring case, a package scope and separators, count as typos (a first-party extension's own name never does
 * at those levels). A section near the name of an extension in `failed` (one that did not load, so
 * its own name is unknown: it goes by its spec, `@gatehouse/protected-paths`) is that extension's
 * as likely as a typo, and is never reported: the load failure is, and naming the section instead
 * ("did you mean …?") sent a user of an untrusted project after a typo that was not there.
 */
export function strayConfigSections(
  settings: MergedSettings,
  known: ReadonlySet<string>,
  unsure: boolean,
  failed: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  const nearFailed = (loose: string) =>
    [...failed].some((f) => distance(loose, looseName(f), TYPO_DISTANCE) <= TYPO_DISTANCE);
  for (const level of settings.levels) {
    // User and managed settings serve every project: a section for an extension this project does
    // not enable is normal there; only a near miss of one it does enable is a typo.
    const shared = level.level === "user" || level.level === "managed";
    for (const name of Object.keys(level.settings.config ?? {})) {
      if (known.has(name)) continue;
      const loose = looseName(name);
      if (nearFailed(loose)) continue;
      const near = [...known].find((k) => distance(loose, looseName(k), TYPO_DISTANCE) <= TYPO_DISTANCE);
      if ((unsure || shared) && near === undefined) continue;
      if (shared && FIRST_PARTY_NAMES.includes(name)) continue;
      const { file, line, column } = locationOf(level, ["config", name]);
      const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
      const enabled = known.size === 0 ? "none is enabled" : `enabled: ${[...known].sort().join(", ")}`;
      problems.push(
        `${file}:${line}:${column}: config[${JSON.stringify(name)}] configures no extension${hint}; a misspelt section leaves its extension on its defaults (${enabled})`,
      );
    }
  }
  return problems;
}
