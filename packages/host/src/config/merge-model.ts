import { GatehouseError } from "../common/errors.ts";
import type { SettingsLevel } from "./settings-levels.ts";
import type { SettingsFile } from "./settings-schema.ts";

/**
 * The keys of `model` that decide where a request goes and whose credentials it carries: the API
 * key from the user's environment travels to `baseURL`, and a `headers` entry (Authorization,
 * x-api-key, a proxy's key header) replaces or adds to it, so the user's prompts and the files the
 * tools read would land in an account the repository chose.
 */
const ROUTING_KEYS = ["baseURL", "headers"] as const;

/**
 * The `model` section, merged key by key (the strongest level that sets a key wins).
 * Contract: the committed project settings may not name `model.baseURL` or `model.headers` (see
 * ROUTING_KEYS; GH_SETTINGS_INVALID naming the file, line and column; `.gatehouse/settings.local.json`,
 * the user's settings, the environment and `--base-url` are the user's own and may set them).
 */
export function mergeModel(present: readonly SettingsLevel[]): NonNullable<SettingsFile["model"]> {
  for (const level of present) {
    if (level.level !== "project") continue;
    const key = ROUTING_KEYS.find((k) => level.settings.model?.[k] !== undefined);
    if (key === undefined) continue;
    const at = level.source.locate(["model", key]);
    const why =
      key === "baseURL"
        ? "your API key would go to a server the repository chose"
        : "a header can replace your API key with one the repository chose (Authorization, x-api-key), sending your prompts and files to its account";
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `${level.file}:${at.line}:${at.column}: model.${key} may not be set in the project's settings: ${why}. Set it in .gatehouse/settings.local.json or your user settings${key === "baseURL" ? ", or pass --base-url" : ""}.`,
    );
  }
  return Object.assign({}, ...[...present].reverse().map((level) => level.settings.model ?? {}));
}
