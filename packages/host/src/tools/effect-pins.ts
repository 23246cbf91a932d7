import { lstatSync, type Stats } from "node:fs";
import type { ToolEffect } from "@gatehouse/sdk";
import { keepShape } from "../common/keep-shape.ts";
import type { GuardPins, PinIdentity } from "../loop/types.ts";
import { resolveRealPath } from "./real-path.ts";
import { resolveToolPath } from "./resolve-path.ts";

/**
 * A pinned file as it was when the guards checked it: its device and inode, or absent;
 * "conflict" when guards saw different files there (every use of it is refused).
 */
type Identity = PinIdentity;

/**
 * Pins by absolute path (what `ToolContext.pinnedTargets` holds) that also remember what each pinned
 * real file was at check time, so a tool can tell a hard link made after the check from the file
 * that was checked. Guards' pins can be added with `set`; they carry no identity.
 */
export class CheckedPins extends Map<string, readonly string[]> {
  readonly #identities = new Map<string, Identity>();

  /** Records what `real` is now (call at check time). */
  remember(real: string): void {
    if (this.#identities.has(real)) return;
    const info = lstatSync(real, NO_THROW);
    this.#identities.set(real, info === undefined ? "absent" : { dev: info.dev, ino: info.ino });
  }

  /** Records what a guard saw at `real` when it checked it (instead of looking again). */
  adopt(real: string, identity: Identity): void {
    if (!this.#identities.has(real)) this.#identities.set(real, identity);
  }

  /** What `real` was at check time, if it was pinned here. */
  identityAt(real: string): Identity | undefined {
    return this.#identities.get(real);
  }
}

// One pin map per checked call: its layout (and the code built on it) outlives each run.
keepShape(new CheckedPins());

/** `lstat` that answers `undefined` for a missing path instead of throwing. */
const NO_THROW = Object.freeze({ throwIfNoEntry: false });

/**
 * The real file each read and write effect names right now, keyed by its absolute path as the
 * built-in tools resolve it, with what that file is: what the host pins when guards check a call,
 * so the tool later opens exactly what was checked (`ToolContext.pinnedTargets`), whether or not a
 * guard pinned it too. Where a guard pinned the same absolute path (`guards`: the pins the guards
 * made a moment ago in the same check), its real paths are the ones pinned, without resolving the
 * path again (the tool re-resolves it before opening and refuses anything else), and what the guard
 * saw at each of them, when it says, is what the tool must find there: the file the guard checked,
 * not whatever a later look would see.
 * Contract: never throws; a path the tools would refuse (empty, NUL) is left out.
 */
export function pinEffectTargets(effects: readonly ToolEffect[], cwd: string, guards?: GuardPins): CheckedPins {
  const pins = new CheckedPins();
  // The host hands over effects it normalised (see normaliseEffects); anything else is skipped.
  for (const effect of Array.isArray(effects) ? effects : []) {
    if (effect === null || typeof effect !== "object") continue;
    if ((effect.kind !== "read" && effect.kind !== "write") || typeof effect.path !== "string") continue;
    let absolute: string;
    try {
      absolute = resolveToolPath(effect.path, cwd);
    } catch {
      continue;
    }
    const guarded = guards?.pins?.get(absolute);
    const reals = guarded !== undefined && guarded.length > 0 ? guarded : [resolveRealPath(absolute)];
    const list = pins.get(absolute);
    const merged = list ? [...list] : [];
    for (const real of reals) {
      // What the guard saw when it checked is what the tool must find; else look now.
      const seen = guarded !== undefined ? guards?.identities?.get(real) : undefined;
      if (seen !== undefined) pins.adopt(real, seen);
      else {
        try {
          pins.remember(real);
        } catch {
          // Unreadable (EACCES, ENOTDIR): the tool's own open reports it.
        }
      }
      if (!merged.includes(real)) merged.push(real);
    }
    pins.set(absolute, merged);
  }
  return pins;
}

/**
 * Throws when the opened file is not what the guards checked, in the ways a path cannot show:
 * a read's file must be the very file (device and inode) the path named at check time, so a file
 * renamed or linked into place by another call of the same batch (`mv .env notes`, `ln .env notes`)
 * is refused; a write's file must not be a hard link that was absent, or another file, at check
 * time (a write through it would change the other name's file too). Files the host did not pin
 * (no guard checked the call) pass.
 */
export function refuseUncheckedFile(options: {
  pins: ReadonlyMap<string, readonly string[]> | undefined;
  target: string;
  stats: Stats;
  displayPath: string;
  access: "read" | "write";
}): void {
  const { pins, target, stats, displayPath } = options;
  if (!(pins instanceof CheckedPins)) return;
  const before = pins.identityAt(target);
  if (before === undefined) return;
  if (before === "conflict") {
    throw new Error(
      `${displayPath} was seen as different files by the policy checks of this call; nothing was ${options.access === "read" ? "read" : "written"}. Try again in a later turn.`,
    );
  }
  const same = before !== "absent" && before.dev === stats.dev && before.ino === stats.ino;
  if (same) return;
  if (options.access === "read") {
    const then = before === "absent" ? "did not exist" : "was another file";
    throw new Error(
      `${displayPath} changed after the policy check (it ${then} then; another call of the same batch replaced it); nothing was read. Read it again in a later turn.`,
    );
  }
  if (stats.nlink > 1) {
    throw new Error(
      `${displayPath} is a hard link (${stats.nlink} links) that appeared after the policy check, so it may be another name of a protected file; nothing was written.`,
    );
  }
}
