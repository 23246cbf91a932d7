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

const USER_SETTINGS = "$GATEHOUSE_HOME/settings.json, by default ~/.gatehouse/settings.json";

/** The levels whose files come with the project: a repository can commit `settings.local.json` too. */
const PROJECT_LEVELS: ReadonlySet<string> = new Set(["project", "projectLocal"]);

/**
 * The `model` section, merged key by key (the strongest level that sets a key wins).
 * Contract: neither project file (`.gatehouse/settings.json`, nor `settings.local.json`, which is
 * local by convention only: a repository can commit one) may name `model.baseURL` or
 * `model.headers` (see ROUTING_KEYS; GH_SETTINGS_INVALID naming the file, line and column); the
 * user's settings, managed settings, the environment and `--base-url` may set them.
 */
export function mergeModel(present: readonly SettingsLevel[]): NonNullable<SettingsFile["model"]> {
  for (const level of present) {
    if (!PROJECT_LEVELS.has(level.level)) continue;
    const key = ROUTING_KEYS.find((k) => level.settings.model?.[k] !== undefined);
    if (key === undefined) continue;
    const at = level.source.locate(["model", key]);
    const why =
      key === "baseURL"
        ? "your API key would go to a server the repository chose"
        : "a header can replace your API key with one the repository chose (Authorization, x-api-key), sending your prompts and files to its account";
    throw new GatehouseError(
      "GH_SETTINGS_INVALID",
      `${level.file}:${at.line}:${at.column}: model.${key} may not be set in the project's settings (settings.local.json included: a repository can commit one): ${why}. Set it in your user settings (${USER_SETTINGS})${key === "baseURL" ? ", the environment, or pass --base-url" : ""}.`,
    );
  }
  return Object.assign({}, ...[...present].reverse().map((level) => level.settings.model ?? {}));
}
