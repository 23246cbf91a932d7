import { resolve } from "node:path";
import { gatehouseHome } from "../config/gatehouse-home.ts";
import { loadSettings } from "../config/load-settings.ts";
import { mergeSettings } from "../config/merge-settings.ts";
import type { AgentHookSettings } from "../config/settings-schema.ts";

/**
 * The effective `agentHooks` settings of a project (tool mappings and the shell mode), merged over
 * the settings hierarchy.
 * Contract: throws GH_SETTINGS_INVALID / GH_JSON_SYNTAX naming the file for a bad settings file;
 * the caller fails closed.
 */
export function readAgentHookSettings(options: { cwd: string; env?: NodeJS.ProcessEnv }): AgentHookSettings {
  const env = options.env ?? process.env;
  return mergeSettings(loadSettings({ cwd: resolve(options.cwd), env, home: gatehouseHome(env) })).agentHooks;
}
