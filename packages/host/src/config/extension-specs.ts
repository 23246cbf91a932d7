import { isAbsolute, resolve } from "node:path";
import { LOAD_ORDER, type SettingsLevel, type SettingsLevelName, type SettingsLevels } from "./settings-levels.ts";

/** One entry of a settings file's `extensions`, with where it was written. */
export interface ExtensionSpec {
  /** As written: a path (relative to `dir`, or absolute) or a package name. */
  readonly spec: string;
  /** The level of the settings file that lists it. */
  readonly level: SettingsLevelName;
  /** The settings file that lists it. */
  readonly file: string;
  /** The directory a relative path resolves against. */
  readonly dir: string;
  /** Marked `"required": true` in its settings entry. */
  readonly required: boolean;
  /** Where the entry is written. */
  readonly at: SettingsLocation;
}

/** A place in a settings file. */
export interface SettingsLocation {
  readonly level: SettingsLevelName;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The union of every level's `extensions`, in load order: managed, project, project local, user.
 * Contract: a spec listed twice is kept once, the first in load order wins (required if any of its
 * entries says so). Two specs are the same
 * when both are paths (`./x`, `../x`, absolute) resolving to the same file from their `dir`, or when
 * both are the same package name listed from the same `dir`.
 */
export function collectExtensionSpecs(levels: SettingsLevels): ExtensionSpec[] {
  const specs: (ExtensionSpec & { identity: string })[] = [];
  for (const name of LOAD_ORDER) {
    const level = levels[name];
    if (level === undefined) continue;
    (level.settings.extensions ?? []).forEach((entry, index) => {
      const spec = typeof entry === "string" ? entry : entry.spec;
      const required = typeof entry === "object" && entry.required === true;
      const identity = isPathSpec(spec) ? `path\0${resolve(level.dir, spec)}` : `package\0${level.dir}\0${spec}`;
      const at = locationOf(level, ["extensions", index]);
      const earlier = specs.findIndex((s) => s.identity === identity);
      if (earlier >= 0) {
        // Listed twice: loaded once, at its first place, required if either entry says so.
        const first = specs[earlier] as ExtensionSpec & { identity: string };
        if (required && !first.required) specs[earlier] = { ...first, required: true };
        return;
      }
      specs.push({ spec, level: name, file: level.file, dir: level.dir, required, at, identity });
    });
  }
  return specs.map(({ identity: _, ...spec }) => spec);
}

/** Where the value at `path` is written in `level`'s file. */
export function locationOf(level: SettingsLevel, path: readonly (string | number)[]): SettingsLocation {
  const { line, column } = level.source.locate(path);
  return { level: level.level, file: level.file, line, column };
}

/**
 * True for a spec written as a path (`./x`, `../x`, `/x`, `~/x`, `.`, `..`) rather than a package name.
 * Contract: the one definition discovery and de-duplication share.
 */
export function isPathSpec(spec: string): boolean {
  return (
    spec === "." ||
    spec === ".." ||
    spec.startsWith("./") ||
    spec.startsWith("../") ||
    spec.startsWith("~") ||
    isAbsolute(spec)
  );
}
