export type { ExtensionSpec, SettingsLocation } from "./extension-specs.ts";
export { gatehouseHome } from "./gatehouse-home.ts";
export {
  type LoadSettingsOptions,
  loadSettings,
  type SettingsFileLocation,
  settingsFileLocations,
} from "./load-settings.ts";
export { type MergedSettings, mergeSettings } from "./merge-settings.ts";
export { ensurePrivateDir } from "./private-dir.ts";
export {
  LOAD_ORDER,
  PRECEDENCE,
  type SettingsLevel,
  type SettingsLevelName,
  type SettingsLevels,
} from "./settings-levels.ts";
export { type SettingsFile, settingsFileSchema, type ToolExecutionMode } from "./settings-schema.ts";
export { type TrustRecord, trustFilePath } from "./trust-file.ts";
export { grantTrust, revokeTrust, type TrustOptions, type TrustStatus, trustStatus } from "./trust-store.ts";
