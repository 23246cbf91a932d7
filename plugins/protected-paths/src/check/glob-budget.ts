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
  constructor(glob: string, shared = false) {
    super(
      shared
        ? `its glob ${JSON.stringify(glob)} was not matched: the checks of the calls before it took ${budgetMs / 1000} s of glob matching together (calls checked together share that time, and a glob with many wildcards in a row, such as *a*a*a*b, uses it up), so what it names cannot be checked; run it again on its own`
        : `matching its glob ${JSON.stringify(glob)} took more than ${budgetMs / 1000} s (many wildcards in a row, such as *a*a*a*b, backtrack exponentially against long names), so what it names cannot be checked; name the files literally or simplify the glob`,
    );
  }
}

/**
 * Glob matching time of every check since the event loop last turned. The calls of a parallel batch
 * are checked one after another before any runs, within one turn of the loop: with a budget per
 * check alone, thirty commands with a catastrophic glob froze the host for a minute, deaf to Ctrl-C
 * (a signal is only handled when the loop turns). Every run counts against this too, so the checks
 * never hold the thread longer than one budget before the loop turns; it is cleared when it does.
 */
let turnSpentMs = 0;
let turnResetQueued = false;

function chargeTurn(ms: number): void {
  turnSpentMs += ms;
  if (turnResetQueued) return;
  turnResetQueued = true;
  setImmediate(() => {
    turnSpentMs = 0;
    turnResetQueued = false;
  }).unref();
}

/** What the matching script sees. */
interface MatchGlobals {
  /** The work to run, and where its answer goes. */
  work: () => unknown;
  answer: { value?: unknown };
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
 * `withGlobBudget` (or `GLOB_BUDGET_MS` alone), and no longer than what is left of the same
 * budget for every check since the event loop last turned; throws `GlobTooSlow` once either is spent.
 */
export function matchingNames(glob: string, names: readonly string[], options: MinimatchOptions): string[] {
  if (names.length === 0) return [];
  return runBudgeted(glob, () => {
    const m = new Minimatch(glob, options);
    const hits: string[] = [];
    for (const name of names) if (m.match(name)) hits.push(name);
    return hits;
  });
}

/**
 * Runs `work` (compiling or matching the model's glob `glob`) under the budget `matchingNames`
 * keeps: in a `vm` run with the time left of the enclosing `withGlobBudget` (or `GLOB_BUDGET_MS`
 * alone) and of every check since the event loop last turned; throws `GlobTooSlow` once either is
 * spent. Contract: `work` is synchronous and touches nothing outside what it returns.
 */
export function runBudgeted<T>(glob: string, work: () => T): T {
  if (turnSpentMs >= budgetMs) throw new GlobTooSlow(glob, true);
  const own = deadline === undefined ? budgetMs : Math.ceil(deadline - performance.now());
  if (own < 1) throw new GlobTooSlow(glob);
  const left = Math.min(own, Math.ceil(budgetMs - turnSpentMs));
  context ??= vm.createContext({ work: () => undefined, answer: {} }) as vm.Context & MatchGlobals;
  script ??= new vm.Script("answer.value = work();");
  const answer: { value?: unknown } = {};
  Object.assign(context, { work, answer });
  const start = performance.now();
  let timedOut = false;
  try {
    script.runInContext(context, { timeout: left });
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
    timedOut = true;
    throw new GlobTooSlow(glob, left < own);
  } finally {
    // A run stopped by its timeout used all it was given (V8's watchdog may stop it a little early).
    chargeTurn(timedOut ? Math.max(left, performance.now() - start) : performance.now() - start);
    Object.assign(context, { work: () => undefined, answer: {} });
  }
  return answer.value as T;
}
