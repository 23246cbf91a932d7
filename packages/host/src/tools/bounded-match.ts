import vm from "node:vm";

/** How long one grep or find call may spend matching one of the model's patterns, over all texts, before it stops. */
export const GREP_MATCH_BUDGET_MS = 10_000;

let defaultBudgetMs = GREP_MATCH_BUDGET_MS;

/**
 * Sets the budget of matchers made afterwards that name none (grep's and find's). For tests only,
 * so a catastrophic pattern is shown stopped in a fraction of a second; not exported by the package.
 */
export function setDefaultMatchBudget(ms: number): void {
  defaultBudgetMs = ms;
}

/**
 * Passes on a Ctrl-C that stopped a run. A signal that arrives while the thread is held is only
 * handled once the loop turns, so during a run Node stops the run instead (`breakOnSigint`) and
 * calls no handler: the process's handlers (the CLI aborts the run) are called here, or, when there
 * are none, the signal is raised again so it does what it would have done (end the process).
 */
function interrupted(): Error {
  if (process.listenerCount("SIGINT") > 0) process.emit("SIGINT", "SIGINT");
  else process.kill(process.pid, "SIGINT");
  return new Error("Matching was interrupted (Ctrl-C).");
}

/** Says whether one text matches: a RegExp, or a compiled glob (`globTest`). */
export interface TextTest {
  test(text: string): boolean;
}

/** What the matching script sees: the test, the texts to test, and where to put the hits. */
interface MatchGlobals {
  tester: TextTest;
  lines: readonly string[];
  hits: number[];
}

/** Options of a `BoundedMatcher`. */
export interface BoundedMatcherOptions {
  /** Time the runs of one matcher may take together (default `GREP_MATCH_BUDGET_MS`, see `setDefaultMatchBudget`). */
  budgetMs?: number;
  /** The error message once the budget is spent (default: grep's, naming the regular expression). */
  timeoutMessage?: (budgetMs: number) => string;
  /** What is matched, for messages (default: `the pattern /SOURCE/` for a RegExp). */
  subject?: string;
  /** The call's abort signal: once it is aborted, no further run starts (`match` throws its reason). */
  signal?: AbortSignal;
}

/**
 * Main-thread time every matcher's runs took since the event loop last turned. The calls of a
 * parallel batch match one after another on the one thread, often within one turn of the loop (their
 * reads completed together); with a budget per matcher alone, twenty catastrophic greps froze the
 * host twenty times ten seconds, deaf to Ctrl-C (a signal is only handled when the loop turns).
 * Every run counts against this too, so the thread is never held longer than one budget before the
 * loop turns (and handles Ctrl-C, timers and I/O); it is cleared when the loop turns.
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

// One context for the process: a run is synchronous, so no two runs ever share it at once.
let context: (vm.Context & MatchGlobals) | undefined;
let script: vm.Script | undefined;

/**
 * Tests texts against a model's pattern with a time budget. A regular expression with nested
 * repetition (`^(a|a)*$`, `(a+)+$`) backtracks exponentially, and so does the expression a glob
 * compiles to (`+(a|*)z`, `*a*a*a*a*b` against a long name; `{a,b}{a,b}…` expands to a huge list):
 * a JavaScript regular expression cannot be interrupted from outside, so on the main thread it
 * would freeze the host (no abort, no timeout, no audit) for as long as it runs. Inside a `vm` run
 * with `timeout`, V8 stops it — also while it runs code of this realm that the test calls.
 * Contract: `match(texts)` returns the indices of the texts `test` accepts, in order, or throws an
 * Error (`timeoutMessage`) once the runs of this matcher have taken `budgetMs` together, or once
 * the runs of all matchers have taken `budgetMs` since the event loop last turned (the calls of a
 * batch share the thread); it throws the signal's reason, without running, once `signal` is aborted.
 * Each run costs a watchdog thread (~0.3 ms): pass many texts per call, not one.
 */
export class BoundedMatcher {
  readonly #tester: TextTest;
  readonly #budgetMs: number;
  readonly #timeoutMessage: (budgetMs: number) => string;
  readonly #signal: AbortSignal | undefined;
  readonly #subject: string;
  #spentMs = 0;

  constructor(tester: TextTest, options: BoundedMatcherOptions = {}) {
    const { budgetMs = defaultBudgetMs, timeoutMessage, signal } = options;
    this.#subject = options.subject ?? (tester instanceof RegExp ? `The pattern /${tester.source}/` : "The pattern");
    this.#tester = tester;
    this.#budgetMs = budgetMs;
    this.#signal = signal;
    this.#timeoutMessage =
      timeoutMessage ??
      ((ms) => {
        const source = tester instanceof RegExp ? tester.source : String(tester);
        return `The pattern /${source}/ took more than ${ms / 1000} s to match, so grep stopped: nested repetition such as (a+)+ or (a|a)* can take exponential time. Simplify the pattern or search fewer files.`;
      });
  }

  /** Indices of the texts that match. */
  match(lines: readonly string[]): number[] {
    if (lines.length === 0) return [];
    this.#signal?.throwIfAborted();
    // Its own runs took the time (most of this turn's, or its whole budget): this pattern is the slow one.
    const own = this.#spentMs >= this.#budgetMs || (turnSpentMs >= this.#budgetMs && this.#spentMs * 2 >= turnSpentMs);
    if (own) throw new Error(this.#timeoutMessage(this.#budgetMs));
    if (turnSpentMs >= this.#budgetMs) {
      throw new Error(
        `${this.#subject} was not matched: the searches running together with this one already took ${this.#budgetMs / 1000} s of matching (they share that time, and a pattern that backtracks exponentially uses it up). Run this search again on its own.`,
      );
    }
    context ??= vm.createContext({ tester: /$^/, lines: [], hits: [] }) as vm.Context & MatchGlobals;
    script ??= new vm.Script("for (let i = 0; i < lines.length; i++) if (tester.test(lines[i])) hits.push(i);");
    const left = Math.max(1, Math.ceil(Math.min(this.#budgetMs - this.#spentMs, this.#budgetMs - turnSpentMs)));
    const hits: number[] = [];
    Object.assign(context, { tester: this.#tester, lines, hits });
    const start = performance.now();
    let timedOut = false;
    try {
      script.runInContext(context, { timeout: left, breakOnSigint: true });
    } catch (error) {
      const why = (error as NodeJS.ErrnoException | undefined)?.code;
      if (why === "ERR_SCRIPT_EXECUTION_INTERRUPTED") throw interrupted();
      if (why !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
      timedOut = true;
      throw new Error(this.#timeoutMessage(this.#budgetMs));
    } finally {
      // A run stopped by its timeout used all it was given: V8's watchdog may stop it a little
      // before this clock says `left` ms went by, and the budget must count as spent all the same.
      const took = timedOut ? Math.max(left, performance.now() - start) : performance.now() - start;
      this.#spentMs += took;
      chargeTurn(took);
      Object.assign(context, { lines: [], hits: [] });
    }
    return hits;
  }
}
