import type { JsonSource } from "../common/json-source.ts";
import type { SettingsFile } from "./settings-schema.ts";

/** The four levels of the settings hierarchy. */
export type SettingsLevelName = "managed" | "projectLocal" | "project" | "user";

/** Levels from strongest to weakest: a value set by an earlier level wins over a later one. */
export const PRECEDENCE: readonly SettingsLevelName[] = ["managed", "projectLocal", "project", "user"];

/**
 * Levels in extension load order (SPEC §5 discovery: managed, project, user).
 * Why it differs from PRECEDENCE: discovery order follows where code lives, not which file wins a
 * value; the project-local file extends the project's list, so its extensions load right after it.
 */
export const LOAD_ORDER: readonly SettingsLevelName[] = ["managed", "project", "projectLocal", "user"];

/** One settings file that was found and validated. */
export interface SettingsLevel {
  /** Which level of the hierarchy this file is. */
  readonly level: SettingsLevelName;
  /** Absolute path of the file. */
  readonly file: string;
  /** The directory relative extension paths in this file resolve against. */
  readonly dir: string;
  /** The validated content. */
  readonly settings: SettingsFile;
  /** The parsed text, to locate any value of the file by its path. */
  readonly source: JsonSource;
}

/** The settings files that exist, by level; an absent level had no file. */
export type SettingsLevels = { readonly [Level in SettingsLevelName]?: SettingsLevel };

/** The present levels, strongest first. */
export function levelsByPrecedence(levels: SettingsLevels): SettingsLevel[] {
  return PRECEDENCE.flatMap((name) => levels[name] ?? []);
}

/** Whether level `a` is at least as strong as level `b`. */
export function isAtLeastAsStrong(a: SettingsLevelName, b: SettingsLevelName): boolean {
  return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b);
}
