import path from "node:path";
import type { DenyRule } from "../rules/deny-rule.ts";
import { matchView } from "./match-view.ts";
import type { PolicyContext } from "./policy-context.ts";

/** How many entries a recursive target may have before the analysis gives up and refuses. */
export const MAX_SCANNED_ENTRIES = 10_000;

/** What a scan below a directory found. */
export type ScanResult = { found: string; rule: DenyRule } | { tooMany: true } | { link: string } | undefined;

/**
 * Looks for a path below `dir` that one of `rules` denies, breadth first, without following
 * symlinks (rm -r, chmod -R and mv act on a link, not its target); with `skipHidden`, dot-entries
 * and everything below them are not looked at (a search that does not read them).
 * Contract: returns the first denied entry, `{ tooMany }` after `MAX_SCANNED_ENTRIES` entries, or
 * `undefined` when nothing below is denied (or `dir` is not a readable directory).
 */
export function scanBelow(
  ctx: PolicyContext,
  dir: string,
  rules: readonly DenyRule[],
  options: {
    skipHidden?: boolean;
    /** The reader may follow symbolic links (grep -R, diff, rg -L): any link below is reported. */
    links?: boolean;
  } = {},
): ScanResult {
  const queue = [dir];
  let seen = 0;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const entry of ctx.fs.readdir(next) ?? []) {
      if (options.skipHidden && entry.name.startsWith(".")) continue;
      seen += 1;
      if (seen > MAX_SCANNED_ENTRIES) return { tooMany: true };
      const full = path.join(next, entry.name);
      const view = matchView(ctx, full);
      const rule = rules.find((r) => r.matches(view));
      if (rule) return { found: full, rule };
      if (options.links && entry.isSymbolicLink) return { link: full };
      if (entry.isDirectory && !entry.isSymbolicLink) queue.push(full);
    }
  }
  return undefined;
}
