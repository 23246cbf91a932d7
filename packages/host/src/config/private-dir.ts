import { chmodSync, lstatSync, mkdirSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { GatehouseError } from "../common/errors.ts";
import { osReason } from "./os-reason.ts";

function refuse(dir: string, why: string, cause?: unknown): never {
  throw new GatehouseError(
    "GH_STATE_DIR",
    `Gatehouse state directory ${dir} ${why}; Gatehouse keeps trust, caches, audit logs and keys there and refuses to use it`,
    cause === undefined ? undefined : { cause },
  );
}

function statOrCreate(dir: string): Stats {
  try {
    return lstatSync(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") refuse(dir, `cannot be read (${osReason(error)})`, error);
  }
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    // Another process (a parallel run sharing GATEHOUSE_HOME) created it in between: what is there
    // now gets the same checks as any existing directory.
    if ((error as { code?: unknown }).code !== "EEXIST") refuse(dir, `cannot be created (${osReason(error)})`, error);
  }
  try {
    return lstatSync(dir);
  } catch (error) {
    return refuse(dir, `cannot be created (${osReason(error)})`, error);
  }
}

/** Checks one directory of the private chain, tightening the mode of one the user owns that others may only read. */
function checkDir(dir: string): void {
  const stat = statOrCreate(dir);
  if (stat.isSymbolicLink()) refuse(dir, "is a symbolic link");
  if (!stat.isDirectory()) refuse(dir, "is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) refuse(dir, `is owned by uid ${stat.uid}, not by you (uid ${uid})`);
  // Others could write here: whatever they put in (settings naming their code, extensions, a trust
  // store, seals) would be read as the user's own once the mode is tightened, so it is not tightened.
  if ((stat.mode & 0o022) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    refuse(
      dir,
      `is writable by other users (mode ${mode}): what it holds may not be yours; check its contents, then run chmod 700 on it`,
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch (error) {
      refuse(dir, `is open to other users and its mode cannot be tightened (${osReason(error)})`, error);
    }
  }
}

function checkSegment(segment: string): void {
  if (segment === "" || segment === "." || segment === ".." || /[/\\\0]/.test(segment)) {
    throw new GatehouseError(
      "GH_STATE_DIR",
      `${JSON.stringify(segment)} is not a valid name for a folder in the Gatehouse state directory`,
    );
  }
}

/**
 * Returns `home/segments...`, creating what is missing, after checking that every directory from the
 * home down is private to the current user.
 * Contract: each directory of the chain (the home included) is created with mode 0700; an existing
 * one must be a real directory (a symbolic link is refused, never followed) owned by the current
 * user and writable by nobody else (files others could have put there would pass for the user's);
 * one others may only read or search is tightened to 0700. Any violation throws GatehouseError `GH_STATE_DIR`
 * naming the directory. Segments are single names (no separators, `.` or `..`). The home's own
 * ancestors are created if missing but not checked: they are the user's to choose.
 */
export function ensurePrivateDir(home: string, ...segments: string[]): string {
  for (const segment of segments) checkSegment(segment);
  try {
    mkdirSync(dirname(home), { recursive: true });
  } catch (error) {
    refuse(home, `cannot be created (${osReason(error)})`, error);
  }
  let dir = home;
  checkDir(dir);
  for (const segment of segments) {
    dir = join(dir, segment);
    checkDir(dir);
  }
  return dir;
}
