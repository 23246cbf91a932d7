import { createRequire } from "node:module";
import type * as Minimatch from "minimatch";
import { readyResolver } from "../common/resolver-stat.ts";
import type { TextTest } from "./bounded-match.ts";

let loaded: typeof Minimatch | undefined;

/**
 * minimatch, loaded at the first glob of find or grep: a command that runs no search
 * (`gatehouse tools`) does not pay for loading its eight files at start.
 */
function minimatchModule(): typeof Minimatch {
  if (!loaded) readyResolver();
  loaded ??= createRequire(import.meta.url)("minimatch") as typeof Minimatch;
  return loaded;
}

/**
 * A glob as a `TextTest` for a `BoundedMatcher`: true for a path the glob matches (or, with
 * `orName`, whose last segment it matches).
 * Contract: the module is loaded here; the glob is compiled at the first `test`, so that its brace
 * expansion (`{a,b}{a,b}…` grows exponentially) runs inside the bounded run too.
 */
export function globTest(glob: string, options: Minimatch.MinimatchOptions & { orName?: boolean }): TextTest {
  const { Minimatch: Compiled } = minimatchModule();
  const { orName = false, ...minimatchOptions } = options;
  let compiled: Minimatch.Minimatch | undefined;
  return {
    test(text) {
      compiled ??= new Compiled(glob, minimatchOptions);
      if (compiled.match(text)) return true;
      if (!orName) return false;
      const slash = text.lastIndexOf("/");
      return slash !== -1 && compiled.match(text.slice(slash + 1));
    },
  };
}
