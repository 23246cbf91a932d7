/**
 * How one key of an extension's settings section merges across the settings levels (managed >
 * project local > project > user).
 *
 * Managed settings are a floor when they enable the extension or configure it: below them a level
 * can only tighten a key that has a rule other than `"override"`, and the floor of a key managed
 * leaves unset is the schema's default. A lower level that tries to loosen a floor is an error of
 * that level, named with its file, line and column; the host then stops (a guard that cannot be
 * configured as written does not run with a guess). Without a managed floor, the strongest level
 * that sets a key wins, except that `"union"` lists always collect every level's entries.
 *
 * - `"override"`: the strongest level that sets the key wins (for keys that are not security-relevant);
 * - `"union"`: a list whose entries every level adds to (deny lists); nothing below can remove one;
 * - `"pinned"`: under a floor, only managed settings (or the schema's default) decide it; a lower
 *   level may repeat the floor's value but setting anything else is an error of that level;
 * - `"narrower"`: a list of roots (paths; relative ones resolve against the project directory, `~`
 *   against the home; an unset floor means the project directory). Under a floor, every root a lower
 *   level lists must lie inside one of the floor's roots (compared after resolving symbolic links);
 *   the strongest lower level that sets the list wins;
 * - `{ stricter: [...] }`: the values in order from loosest to strictest. Under a floor, a lower
 *   level may only choose a value at least as strict as the floor's, and the strictest value any
 *   level chose wins;
 * - `{ fields: {...} }`: an object whose keys merge by their own rules.
 */
export type ConfigMergeRule =
  | "override"
  | "union"
  | "pinned"
  | "narrower"
  | { readonly stricter: readonly unknown[] }
  | { readonly fields: ConfigMergeRules };

/** The merge rule of each key of a settings section; keys without one merge as the generic settings merge does. */
export type ConfigMergeRules = { readonly [key: string]: ConfigMergeRule };

/** Options of `api.config`. */
export interface ConfigOptions {
  /** How each key merges across settings levels; see `ConfigMergeRule`. */
  merge?: ConfigMergeRules;
  /**
   * Keys only user or managed settings may set, never a file in the project (`.gatehouse/settings.json`
   * or `settings.local.json`, which a repository can commit as well): what a repository must not
   * choose for the person who runs it, such as where data is written or sent outside the project.
   * Set in a project file, such a key is an error of that file, with or without a managed floor.
   */
  userOnly?: readonly string[];
}
