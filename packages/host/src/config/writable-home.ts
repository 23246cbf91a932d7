import { accessSync, constants } from "node:fs";
import { GatehouseError } from "../common/errors.ts";
import { osReason } from "./os-reason.ts";
import { ensurePrivateDir } from "./private-dir.ts";

/**
 * Checks, before a run starts, that the Gatehouse home can hold what the run will write there
 * (audit log and key, sandbox masks, caches, sessions), so a read-only home is refused up front
 * instead of stopping the run at its first tool call.
 * Contract: the home passes `ensurePrivateDir` (created 0700 if missing, a private directory of
 * the user) and the process may write to it (`access(W_OK)`, which also reports a read-only file
 * system); otherwise throws GatehouseError `GH_STATE_DIR` naming it. Returns the home.
 */
export function ensureWritableHome(home: string): string {
  ensurePrivateDir(home);
  try {
    accessSync(home, constants.W_OK);
  } catch (error) {
    throw new GatehouseError(
      "GH_STATE_DIR",
      `Gatehouse state directory ${home} cannot be written (${osReason(error)}); Gatehouse keeps trust, caches, audit logs and keys there and refuses to use it`,
      { cause: error },
    );
  }
  return home;
}
