import type { SettingsLevelName } from "../config/settings-levels.ts";

/** Where one effective configuration value was written. */
export interface ConfigKeySource {
  /** A settings level, or `"code"` for a section given to `createHost({ config })`. */
  readonly level: SettingsLevelName | "code";
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

/** What `api.config` decided, key by key: what `gatehouse policy check --explain` prints. */
export interface ConfigExplanation {
  /** True when managed settings were the floor of this extension's keys. */
  readonly floor: boolean;
  /** The parsed, effective configuration. */
  readonly value: unknown;
  /**
   * Per key (dotted for `fields`), the effective value and the levels it was taken from, strongest
   * first; an empty `from` means the schema's default.
   */
  readonly keys: readonly { key: string; value: unknown; from: readonly ConfigKeySource[] }[];
}

const LABELS: Record<ConfigKeySource["level"], string> = {
  managed: "managed settings",
  projectLocal: "project local settings",
  project: "project settings",
  user: "user settings",
  code: "createHost",
};

/** How a level is named in messages: `managed settings`, `project local settings`, … */
export function levelLabel(level: ConfigKeySource["level"]): string {
  return LABELS[level];
}
