export type { ExtensionSpec, SettingsLocation } from "./extension-specs.ts";
export { gatehouseHome } from "./gatehouse-home.ts";
export {
  type LoadSettingsOptions,
  loadSettings,
  type SettingsFileLocation,
  settingsFileLocations,
} from "./load-settings.ts";
export { type LocatedHookGroup, type MergedSettings, mergeSettings } from "./merge-settings.ts";
export { ensurePrivateDir } from "./private-dir.ts";
export {
  LOAD_ORDER,
  PRECEDENCE,
  type SettingsLevel,
  type SettingsLevelName,
  type SettingsLevels,
} from "./settings-levels.ts";
export {
  type AgentHookSettings,
  type CommandHookEvent,
  type CommandHookGroup,
  type SettingsFile,
  settingsFileSchema,
  type ToolExecutionMode,
} from "./settings-schema.ts";
export { type ExtensionTrustRecord, type TrustRecord, trustFilePath } from "./trust-file.ts";
export {
  type ExtensionCode,
  grantTrust,
  revokeTrust,
  type TrustOptions,
  type TrustStatus,
  trustCommand,
  trustStatuses,
} from "./trust-store.ts";
export { ensureWritableHome } from "./writable-home.ts";
