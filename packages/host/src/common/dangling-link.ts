import { lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** A symbolic link on the way to a path that does not exist, and what it points to. */
export interface DanglingLink {
  /** The link itself. */
  link: string;
  /** Its target as written in the link. */
  target: string;
}

/**
 * Why a path that cannot be opened is not simply absent: the symbolic link on its way that leads
 * nowhere (the path itself, or a folder above it).
 * Contract: call it after an open failed with ENOENT/ENOTDIR. Walks up from `path` to the first
 * entry that exists (`lstat`): a symbolic link there whose target cannot be reached is returned;
 * anything else (a real folder, a link that resolves, nothing at all) returns `undefined`, so a
 * file that is really missing stays missing. Never throws.
 */
export function danglingLinkOn(path: string): DanglingLink | undefined {
  for (let current = path; ; current = dirname(current)) {
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      if (dirname(current) === current) return undefined;
      continue;
    }
    if (!isLink || reachable(current)) return undefined;
    try {
      return { link: current, target: readlinkSync(current) };
    } catch {
      return undefined;
    }
  }
}

function reachable(link: string): boolean {
  try {
    statSync(link);
    return true;
  } catch {
    // ENOENT, a loop (ELOOP) or a target that is not a folder (ENOTDIR): the link leads nowhere.
    return false;
  }
}

/** `settings.json is a symbolic link to "x", which does not exist` for messages. */
export function describeDanglingLink(dangling: DanglingLink): string {
  return `${dangling.link} is a symbolic link to ${JSON.stringify(dangling.target)}, which does not exist`;
}
