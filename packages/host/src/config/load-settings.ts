import { readJsonFile } from "./read-json-file.ts";
import type { SettingsLevel, SettingsLevelName, SettingsLevels } from "./settings-levels.ts";
import { type LoadSettingsOptions, MANAGED_VARIABLE, settingsFileLocations } from "./settings-locations.ts";
import { settingsFileSchema } from "./settings-schema.ts";

export { type LoadSettingsOptions, type SettingsFileLocation, settingsFileLocations } from "./settings-locations.ts";

/**
 * Reads and validates every settings level that is present.
 * Contract: a missing project or user file is simply absent from the result; the managed file, when
 * `GATEHOUSE_MANAGED_SETTINGS` names it, must be readable, or this throws (fail closed). An unreadable
 * file, malformed JSON or a schema violation throws GatehouseError `GH_SETTINGS_INVALID` whose message
 * names the file and, per problem, `file:line:column: field: what was expected`. Nothing is merged
 * here; see `mergeSettings`.
 */
export function loadSettings(options: LoadSettingsOptions): SettingsLevels {
  const levels: { -readonly [Level in SettingsLevelName]?: SettingsLevel } = {};
  for (const { level, file, dir, required } of settingsFileLocations(options)) {
    const loaded = readJsonFile({
      file,
      schema: settingsFileSchema,
      what: required ? "managed settings" : "settings",
      optional: !required,
      readHint: required ? `${MANAGED_VARIABLE} names it and managed policy fails closed` : "",
      refuseProtoKey: true,
    });
    if (loaded !== undefined) levels[level] = { level, file, dir, settings: loaded.value, source: loaded.source };
  }
  return levels;
}
