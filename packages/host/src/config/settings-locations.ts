import { dirname, isAbsolute, join, resolve } from "node:path";
import { GatehouseError } from "../common/errors.ts";
import { gatehouseHome } from "./gatehouse-home.ts";
import type { SettingsLevelName } from "./settings-levels.ts";

/** Where to look for settings. */
export interface LoadSettingsOptions {
  /** The project root: `.gatehouse/settings.json` and `.gatehouse/settings.local.json` live under it. */
  cwd: string;
  /** Environment to read `GATEHOUSE_MANAGED_SETTINGS` and `GATEHOUSE_HOME` from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The Gatehouse home holding the user `settings.json`; defaults to `gatehouseHome(env)`. */
  home?: string;
}

/** One place a settings file may be, whether or not it exists. */
export interface SettingsFileLocation {
  level: SettingsLevelName;
  /** Absolute path of the file. */
  file: string;
  /** The directory relative extension paths in the file resolve against. */
  dir: string;
  /** True for the managed file: when named, it must exist. */
  required: boolean;
}

/** The variable that names the managed settings file. */
export const MANAGED_VARIABLE = "GATEHOUSE_MANAGED_SETTINGS";

/**
 * The settings files Gatehouse reads, strongest first; useful to watch them or to hash them for trust.
 * Contract: the managed file is listed only when `GATEHOUSE_MANAGED_SETTINGS` is set; a set but
 * empty or relative variable throws `GH_SETTINGS_INVALID` (managed policy fails closed: a relative
 * name would resolve into whatever directory the run starts in, so a project could supply its own
 * "managed" floor). Both project files have `cwd` as their `dir`, the user file the home.
 */
export function settingsFileLocations(options: LoadSettingsOptions): SettingsFileLocation[] {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const home = resolve(options.home ?? gatehouseHome(env));
  const locations: SettingsFileLocation[] = [];
  const managed = env[MANAGED_VARIABLE];
  if (managed !== undefined) {
    if (managed.trim() === "") {
      throw new GatehouseError(
        "GH_SETTINGS_INVALID",
        `${MANAGED_VARIABLE} is set but empty; it must name the managed settings file (managed policy fails closed)`,
      );
    }
    if (!isAbsolute(managed)) {
      throw new GatehouseError(
        "GH_SETTINGS_INVALID",
        `${MANAGED_VARIABLE} must be an absolute path, not ${JSON.stringify(managed)}: a relative one would be read from the project, which must not set its own managed policy (managed policy fails closed)`,
      );
    }
    const file = resolve(managed);
    locations.push({ level: "managed", file, dir: dirname(file), required: true });
  }
  locations.push(
    { level: "projectLocal", file: join(cwd, ".gatehouse", "settings.local.json"), dir: cwd, required: false },
    { level: "project", file: join(cwd, ".gatehouse", "settings.json"), dir: cwd, required: false },
    { level: "user", file: join(home, "settings.json"), dir: home, required: false },
  );
  return locations;
}
