import { statSync } from "node:fs";
import path from "node:path";
import type { FileInfo } from "../paths/policy-fs.ts";
import type { DenyRule, MatchView } from "../rules/deny-rule.ts";
import type { DenyIndex } from "./deny-index.ts";
import { expandAbsolute, MAX_EXPANDED_ENTRIES } from "./expand-absolute.ts";
import { readdirAt, statAt } from "./raw-fs.ts";

/** A protected file by device and inode, with how many names (hard links) it had when listed. */
export type AliasTable = ReadonlyMap<string, AliasEntry>;

/** One protected file of an `AliasTable`. */
export interface AliasEntry {
  path: string;
  rule: DenyRule;
  links: number;
}

function key(dev: number, ino: number): string {
  return `${dev}:${ino}`;
}

/** Adds every regular file at or below `p` (bounded, symlinks followed only at the top). */
function addFiles(table: Map<string, AliasEntry>, p: string, rule: DenyRule): void {
  const queue = [p];
  let seen = 0;
  for (let next = queue.shift(); next !== undefined && seen < MAX_EXPANDED_ENTRIES; next = queue.shift()) {
    seen += 1;
    let st: ReturnType<typeof statSync>;
    try {
      st = next === p ? statSync(next) : statAt(next);
    } catch {
      continue;
    }
    if (!st) continue;
    if (st.isFile()) {
      if (!table.has(key(st.dev, st.ino))) table.set(key(st.dev, st.ino), { path: next, rule, links: st.nlink });
    } else if (st.isDirectory() && (next === p || rule.subtree)) {
      try {
        // Names as bytes: a file whose name is not UTF-8 is in the table too.
        for (const entry of readdirAt(next)) queue.push(path.join(next, entry.name));
      } catch {
        // unreadable: nothing to add
      }
    }
  }
}

/**
 * The files read rules deny, by device and inode, so a read of another name of one of them (a
 * hard link) is refused too.
 * Contract: refreshes the index first; covers the read matches in the workspace (files, the
 * targets of symlinks, and files inside denied directories as far as the index records them) and
 * the existing paths of absolute read rules (`~/.ssh/**`: every file below, up to
 * `MAX_EXPANDED_ENTRIES` per rule).
 */
export function buildAliasTable(options: {
  index: DenyIndex;
  readRules: readonly DenyRule[];
  view: (absolute: string) => MatchView;
}): AliasTable {
  const table = new Map<string, AliasEntry>();
  options.index.refresh();
  for (const match of options.index.matches()) if (match.read) addFiles(table, match.path, match.read);
  for (const rule of options.readRules) {
    for (const p of expandAbsolute(rule, options.view)) addFiles(table, p, rule);
  }
  return table;
}

/** The entry of `table` that is the same file as `info`. */
export function aliasIn(table: AliasTable, info: FileInfo): AliasEntry | undefined {
  return table.get(key(info.dev, info.ino));
}
