import vm from "node:vm";

/** How long one grep call may spend matching its pattern, over all files, before it stops. */
export const GREP_MATCH_BUDGET_MS = 10_000;

/** What the matching script sees: the pattern, the lines to test, and where to put the hits. */
interface MatchGlobals {
  regex: RegExp;
  lines: readonly string[];
  hits: number[];
}

// One context for the process: a run is synchronous, so no two runs ever share it at once.
let context: (vm.Context & MatchGlobals) | undefined;
let script: vm.Script | undefined;

/**
 * Tests lines against a model's regular expression with a time budget. A pattern with nested
 * repetition (`^(a|a)*$`, `(a+)+$`) backtracks exponentially, and a JavaScript regular expression
 * cannot be interrupted from outside: on the main thread it would freeze the host (no abort, no
 * timeout, no audit) for as long as it runs. Inside a `vm` run with `timeout`, V8 stops it.
 * Contract: `match(lines)` returns the indices of the lines `regex.test` accepts, in order, or
 * throws an Error naming the pattern once the runs of this matcher have taken `budgetMs` together.
 * Each run costs a watchdog thread (~0.3 ms): pass many lines per call, not one.
 */
export class BoundedMatcher {
  readonly #regex: RegExp;
  readonly #budgetMs: number;
  #spentMs = 0;

  constructor(regex: RegExp, budgetMs: number = GREP_MATCH_BUDGET_MS) {
    this.#regex = regex;
    this.#budgetMs = budgetMs;
  }

  /** Indices of the lines that match. */
  match(lines: readonly string[]): number[] {
    if (lines.length === 0) return [];
    context ??= vm.createContext({ regex: /$^/, lines: [], hits: [] }) as vm.Context & MatchGlobals;
    script ??= new vm.Script("for (let i = 0; i < lines.length; i++) if (regex.test(lines[i])) hits.push(i);");
    const left = Math.max(1, Math.ceil(this.#budgetMs - this.#spentMs));
    const hits: number[] = [];
    Object.assign(context, { regex: this.#regex, lines, hits });
    const start = performance.now();
    try {
      script.runInContext(context, { timeout: left });
    } catch (error) {
      if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
      throw new Error(
        `The pattern /${this.#regex.source}/ took more than ${this.#budgetMs / 1000} s to match, so grep stopped: nested repetition such as (a+)+ or (a|a)* can take exponential time. Simplify the pattern or search fewer files.`,
      );
    } finally {
      this.#spentMs += performance.now() - start;
      Object.assign(context, { lines: [], hits: [] });
    }
    return hits;
  }
}
