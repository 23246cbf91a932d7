import vm from "node:vm";
import { Minimatch, type MinimatchOptions } from "minimatch";

/** How long the checks of one command (or one search) may spend matching the model's globs. */
export const GLOB_BUDGET_MS = 2_000;

let budgetMs = GLOB_BUDGET_MS;

/**
 * Sets the budget of later checks. For tests only, so a catastrophic glob is shown refused in a
 * fraction of a second; not exported by the package.
 */
export function setGlobBudget(ms: number): void {
  budgetMs = ms;
}

/** Thrown when the model's globs took longer than the budget to match: the call cannot be checked. */
export class GlobTooSlow extends Error {
  constructor(glob: string) {
    super(
      `matching its glob ${JSON.stringify(glob)} took more than ${budgetMs / 1000} s (many wildcards in a row, such as *a*a*a*b, backtrack exponentially against long names), so what it names cannot be checked; name the files literally or simplify the glob`,
    );
  }
}

/** What the matching script sees. */
interface MatchGlobals {
  compile: () => Minimatch;
  names: readonly string[];
  hits: number[];
}

let context: (vm.Context & MatchGlobals) | undefined;
let script: vm.Script | undefined;
/** When the running `withGlobBudget` ends (a check is synchronous: one at a time). */
let deadline: number | undefined;

/**
 * Runs `check` with one time budget for every glob `matchingNames` matches inside it.
 * Contract: synchronous; nested calls keep the outer deadline.
 */
export function withGlobBudget<T>(check: () => T): T {
  if (deadline !== undefined) return check();
  deadline = performance.now() + budgetMs;
  try {
    return check();
  } finally {
    deadline = undefined;
  }
}

/**
 * The names a model's glob matches, in order.
 * Why: a glob compiles to a regular expression that can backtrack exponentially (`*a*a*a*a*b`
 * against a name of sixty a's ran for minutes), and a regular expression cannot be stopped from
 * outside: on the main thread it froze the check, the host, or an agent's hook past its deadline.
 * Contract: compiled and matched in a `vm` run with the time left of the enclosing
 * `withGlobBudget` (or `GLOB_BUDGET_MS` alone); throws `GlobTooSlow` once that is spent.
 */
export function matchingNames(glob: string, names: readonly string[], options: MinimatchOptions): string[] {
  if (names.length === 0) return [];
  const left = deadline === undefined ? budgetMs : Math.ceil(deadline - performance.now());
  if (left < 1) throw new GlobTooSlow(glob);
  context ??= vm.createContext({ compile: () => new Minimatch(""), names: [], hits: [] }) as vm.Context & MatchGlobals;
  script ??= new vm.Script(
    "{ const m = compile(); for (let i = 0; i < names.length; i++) if (m.match(names[i])) hits.push(i); }",
  );
  const hits: number[] = [];
  Object.assign(context, { compile: () => new Minimatch(glob, options), names, hits });
  try {
    script.runInContext(context, { timeout: left });
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
    throw new GlobTooSlow(glob);
  } finally {
    Object.assign(context, { names: [], hits: [] });
  }
  return hits.map((i) => names[i] as string);
}
