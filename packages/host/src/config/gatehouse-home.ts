import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { GatehouseError } from "../common/errors.ts";

/**
 * The Gatehouse home directory: user settings, user extensions and the trust store live here.
 * Contract: a non-empty `GATEHOUSE_HOME` wins and must be absolute (a relative one throws
 * GatehouseError `GH_STATE_DIR`: it would resolve against whatever directory the process starts in,
 * often the project, whose files the model writes — trust, keys and audit logs must not live there),
 * and so does the root of the filesystem;
 * otherwise `<home>/.gatehouse`, where `<home>` is `HOME` (or `USERPROFILE`) of
 * `env`, falling back to `os.homedir()` (no home at all throws `GH_STATE_DIR`). An empty `GATEHOUSE_HOME` counts as unset, so
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
    const home = resolve(configured);
    if (dirname(home) === home) {
      // Its mode would be tightened to 0700 (locking every other user out of the whole system) and
      // trust, keys and audit folders created at the top of the filesystem.
      throw new GatehouseError(
        "GH_STATE_DIR",
        `GATEHOUSE_HOME must name a folder of its own, not the root of the filesystem (${JSON.stringify(configured)})`,
      );
    }
    return home;
  }
  return join(env.HOME || env.USERPROFILE || userHome(), ".gatehouse");
}

/**
 * `os.homedir()`, which throws a bare SystemError (`uv_os_homedir returned ENOENT`, a stack trace
 * from the CLI) when HOME is unset and the user has no entry in the password database — a
 * container started with `-u 12345`. Contract: throws GatehouseError `GH_STATE_DIR` saying what to set.
 */
function userHome(): string {
  try {
    return homedir();
  } catch (error) {
    const uid = process.getuid?.();
    throw new GatehouseError(
      "GH_STATE_DIR",
      `Gatehouse cannot find its state directory: HOME is not set and user ${uid ?? "?"} has no home directory in the password database (${(error as Error).message}); set GATEHOUSE_HOME (or HOME) to a directory of your own`,
    );
  }
}
