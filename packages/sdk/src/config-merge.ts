/**
 * How one key of an extension's settings section merges across the settings levels (managed >
 * project local > project > user). Managed settings are a floor: below them a level can only
 * tighten a key that has a rule other than `"override"`.
 * - `"override"`: the strongest level that sets the key wins (for keys that are not security-relevant);
 * - `"union"`: a list whose entries every level adds to (deny lists); nothing below can remove one;
 * - `"pinned"`: only managed settings (or the schema's default) may set it; a lower level that sets
 *   it under a managed section is an error of that level;
 * - `"narrower"`: a list of roots; below managed, a level may only keep or narrow managed's roots;
 * - `{ stricter: [...] }`: the values in order from loosest to strictest; below managed, a level may
 *   only move towards the strict end;
 * - `{ fields: {...} }`: an object whose keys merge by their own rules.
 */
export type ConfigMergeRule =
  | "override"
  | "union"
  | "pinned"
  | "narrower"
  | { readonly stricter: readonly unknown[] }
  | { readonly fields: ConfigMergeRules };

/** The merge rule of each key of a settings section; keys without one merge as `"override"`. */
export type ConfigMergeRules = { readonly [key: string]: ConfigMergeRule };

/** Options of `api.config`. */
export interface ConfigOptions {
  /** How each key merges across settings levels; see `ConfigMergeRule`. */
  merge?: ConfigMergeRules;
}
