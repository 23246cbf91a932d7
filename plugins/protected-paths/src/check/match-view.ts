import { relativeInside, resolveRoots } from "../paths/workspace.ts";
import type { MatchView } from "../rules/deny-rule.ts";
import type { PolicyContext } from "./policy-context.ts";

const projectDirs = new WeakMap<PolicyContext, readonly string[]>();

/** The project directory as written and through its symlinks, resolved once per policy. */
function projectSpellings(ctx: PolicyContext): readonly string[] {
  let spellings = projectDirs.get(ctx);
  if (!spellings) {
    const [dir] = resolveRoots([ctx.cwd], ctx);
    spellings = dir ? [dir.absolute, dir.real] : [];
    projectDirs.set(ctx, spellings);
  }
  return spellings;
}

/**
 * How deny rules see one absolute spelling: NFC-normalised (lower-cased when case folds), plus
 * its path relative to every workspace root it falls in, configured or real spelling of the root.
 * Contract: containment is compared in the same normalised form as the rules, so `.ENV` under a
 * folding root still has a relative view; the root's own ancestors never count towards a relative
 * match (a project that lives below a `node_modules` directory is not denied wholesale).
 * A path inside a root also gets its view relative to the project directory, so a relative deny
 * such as `src/generated/**` keeps meaning the project's `src/generated` when a lower settings level
 * narrows the workspace to `./src` (narrowing may only ever take permissions away).
 */
export function matchView(ctx: PolicyContext, spelling: string): MatchView {
  const norm = (s: string) => (ctx.folding ? s.normalize("NFC").toLowerCase() : s.normalize("NFC"));
  const target = norm(spelling);
  const relatives = new Set<string>();
  for (const root of ctx.roots) {
    for (const rootSpelling of [root.absolute, root.real]) {
      const rel = relativeInside(norm(rootSpelling), target);
      if (rel !== undefined) relatives.add(rel);
    }
  }
  if (relatives.size > 0) {
    for (const base of projectSpellings(ctx)) {
      const rel = relativeInside(norm(base), target);
      if (rel !== undefined) relatives.add(rel);
    }
  }
  return { absolute: target, relatives: [...relatives] };
}
