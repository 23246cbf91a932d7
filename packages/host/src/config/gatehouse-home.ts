import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { GatehouseError } from "../common/errors.ts";

/**
 * The Gatehouse home directory: user settings, user extensions and the trust store live here.
 * Contract: a non-empty `GATEHOUSE_HOME` wins and must be absolute (a relative one throws
 * GatehouseError `GH_STATE_DIR`: it would resolve against whatever directory the process starts in,
 * often the project, whose files the model writes — trust, keys and audit logs must not live there);
 * otherwise `<home>/.gatehouse`, where `<home>` is `HOME` (or `USERPROFILE`) of
 * `env`, falling back to `os.homedir()`. An empty `GATEHOUSE_HOME` counts as unset, so
 * `GATEHOUSE_HOME= gatehouse ...` never turns the working directory into the home. Nothing is
 * created or read.
 */
export function gatehouseHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.GATEHOUSE_HOME;
  if (configured) {
    if (!isAbsolute(configured)) {
      throw new GatehouseError(
        "GH_STATE_DIR",
        `GATEHOUSE_HOME must be an absolute path, not ${JSON.stringify(configured)}: a relative one would depend on the directory Gatehouse starts in`,
      );
    }
    return resolve(configured);
  }
  return join(env.HOME || env.USERPROFILE || homedir(), ".gatehouse");
}
