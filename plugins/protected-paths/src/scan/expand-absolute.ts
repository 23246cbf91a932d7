import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { Minimatch } from "minimatch";
import type { DenyRule, MatchView } from "../rules/deny-rule.ts";

/** Pseudo-filesystems a sandbox mounts afresh (its own processes, its own devices): never expanded. */
export const OWN_MOUNTS: readonly string[] = ["/proc", "/dev"];

/** True when `p` lies in one of `OWN_MOUNTS`. */
export function inOwnMount(p: string): boolean {
  return OWN_MOUNTS.some((own) => p === own || p.startsWith(`${own}/`));
}

/** How many entries the expansion of one rule may look at before it protects the whole prefix instead. */
export const MAX_EXPANDED_ENTRIES = 2000;

const prefixes = new Map<string, string>();

/** The leading segments of an absolute pattern that hold no glob characters (memoised: a pure function of the text). */
function literalPrefix(pattern: string): string {
  const known = prefixes.get(pattern);
  if (known !== undefined) return known;
  const prefix = computePrefix(pattern);
  prefixes.set(pattern, prefix);
  return prefix;
}

function computePrefix(pattern: string): string {
  const kept: string[] = [];
  for (const segment of pattern.split("/").filter((s) => s.length > 0)) {
    if (new Minimatch(segment).hasMagic()) break;
    kept.push(segment);
  }
  return `/${kept.join("/")}`;
}

function exists(p: string): boolean {
  return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}

/**
 * The existing paths an absolute rule (`/etc/shadow`, `~/.ssh/**`, `/etc/ssh/ssh_host_*_key`)
 * protects, found from its literal prefix.
 * Contract: a rule without glob characters (apart from a trailing `/**`) gives its path when it
 * exists; otherwise the entries below the prefix are matched, breadth first, without following
 * symlinks; past `MAX_EXPANDED_ENTRIES` the prefix itself is returned (protecting more, never less).
 * Rules under /proc and /dev give nothing: a sandbox has its own, and they are not files to scan.
 */
export function expandAbsolute(rule: DenyRule, view: (absolute: string) => MatchView): string[] {
  const pattern = rule.absolute;
  if (pattern === undefined) return [];
  const prefix = literalPrefix(pattern);
  if (inOwnMount(prefix)) return [];
  if (prefix === path.resolve(pattern)) return exists(prefix) ? [prefix] : [];
  const found: string[] = [];
  const queue = [prefix];
  let seen = 0;
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    let entries: { name: string; isDirectory(): boolean }[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > MAX_EXPANDED_ENTRIES) return exists(prefix) ? [prefix] : [];
      const full = path.join(dir, entry.name);
      const v = view(full);
      if (rule.subtree ? rule.matchesRoot(v) : rule.matches(v)) found.push(full);
      else if (entry.isDirectory()) queue.push(full);
    }
  }
  return found;
}
