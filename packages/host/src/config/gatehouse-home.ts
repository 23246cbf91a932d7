import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * The Gatehouse home directory: user settings, user extensions and the trust store live here.
 * Contract: a non-empty `GATEHOUSE_HOME` wins, resolved to an absolute path against the process's
 * working directory; otherwise `<home>/.gatehouse`, where `<home>` is `HOME` (or `USERPROFILE`) of
 * `env`, falling back to `os.homedir()`. An empty `GATEHOUSE_HOME` counts as unset, so
 * `GATEHOUSE_HOME= gatehouse ...` never turns the working directory into the home. Nothing is
 * created or read.
 */
export function gatehouseHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.GATEHOUSE_HOME;
  if (configured) return resolve(configured);
  return join(env.HOME || env.USERPROFILE || homedir(), ".gatehouse");
}
