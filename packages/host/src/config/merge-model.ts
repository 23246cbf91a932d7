import { GatehouseError } from "../common/errors.ts";
import type { SettingsLevel } from "./settings-levels.ts";
import type { SettingsFile } from "./settings-schema.ts";

/**
 * The `model` section, merged key by key (the strongest level that sets a key wins).
 * Contract: the committed project settings may not name `model.baseURL`: the API key from the
 * user's environment goes wherever the base URL points, so a repository could collect it
 * (GH_SETTINGS_INVALID naming the file, line and column; `.gatehouse/settings.local.json`, the
 * user's settings, the environment and `--base-url` are the user's own and may set it).
 */
export function mergeModel(present: readonly SettingsLevel[]): NonNullable<SettingsFile["model"]> {
  for (const level of present) {
    if (level.level !== "project" || level.settings.model?.baseURL === undefined) continue;
    const at = level.source.locate(["model", "baseURL"]);
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `${level.file}:${at.line}:${at.column}: model.baseURL may not be set in the project's settings: your API key would go to a server the repository chose. Set it in .gatehouse/settings.local.json or your user settings, or pass --base-url.`,
    );
  }
  return Object.assign({}, ...[...present].reverse().map((level) => level.settings.model ?? {}));
}
