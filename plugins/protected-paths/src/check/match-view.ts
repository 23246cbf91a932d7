import { relativeInside } from "../paths/workspace.ts";
import type { MatchView } from "../rules/deny-rule.ts";
import type { PolicyContext } from "./policy-context.ts";

/**
 * How deny rules see one absolute spelling: NFC-normalised (lower-cased when case folds), plus
 * its path relative to every workspace root and every rule anchor (the project directory, each
 * settings level's roots) it falls in, configured or real spelling of each.
 * Contract: containment is compared in the same normalised form as the rules, so `.ENV` under a
 * folding root still has a relative view; a root's own ancestors never count towards a relative
 * match (a project that lives below a `node_modules` directory is not denied wholesale).
 * The anchors are why narrowing the workspace may only ever take permissions away: a `./secrets/**`
 * that managed settings wrote for the project keeps meaning the project's `secrets` when a lower
 * level narrows the workspace to `./sub`, although that folder is then outside the workspace.
 */
export function matchView(ctx: PolicyContext, spelling: string): MatchView {
  const norm = (s: string) => (ctx.folding ? s.normalize("NFC").toLowerCase() : s.normalize("NFC"));
  const target = norm(spelling);
  const relatives = new Set<string>();
  for (const list of [ctx.roots, ctx.anchors]) {
    for (const root of list) {
      for (const rootSpelling of [root.absolute, root.real]) {
        const rel = relativeInside(norm(rootSpelling), target);
        if (rel !== undefined) relatives.add(rel);
      }
    }
  }
  return { absolute: target, relatives: [...relatives] };
}
