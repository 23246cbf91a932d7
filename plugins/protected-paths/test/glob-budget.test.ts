import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GLOB_BUDGET_MS, setGlobBudget } from "../src/check/glob-budget.ts";
import { createPolicy, type Decision } from "../src/index.ts";
import { createFixture } from "./helpers/fixture.ts";

/** "allow", or the refusal's rule and reason. */
function outcome(decision: Decision): string {
  return decision.allow ? "allow" : `${decision.rule}: ${decision.reason}`;
}

/** A glob whose regular expression backtracks for minutes against a long name of a's. */
const SLOW = `${"*a".repeat(12)}*b`;

describe("the model's globs are matched with a time budget", () => {
  // 0.3 s instead of 2 s: each case waits for the budget to run out.
  beforeAll(() => setGlobBudget(300));
  afterAll(() => setGlobBudget(GLOB_BUDGET_MS));

  it("a command whose glob backtracks exponentially is refused in every mode that analyses it, not frozen on", {
    timeout: 30_000,
  }, async () => {
    const f = createFixture();
    f.file("a".repeat(60));
    for (const bash of ["sandbox", "analyze"] as const) {
      // Checks within one turn of the event loop share one budget (see the last case).
      await nextTurn();
      const started = performance.now();
      const decision = f.policy({ bash }).check({ kind: "exec", command: `cat ${SLOW}` });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(outcome(decision)).toMatch(
        /^bash glob too slow: Bash command refused: matching its glob "(\*a){12}\*b" took more than 0.3 s/,
      );
    }
    // An everyday glob is still expanded and checked: it names the .env it matches.
    await nextTurn();
    expect(outcome(f.policy({ bash: "analyze" }).check({ kind: "exec", command: "cat .en*" }))).toMatch(
      /default denyRead \.env/,
    );
  });

  it("the agents' strict analysis refuses it too, including a glob that may expand to an option", {
    timeout: 30_000,
  }, async () => {
    await nextTurn();
    const f = createFixture();
    f.file(`-${"a".repeat(60)}`);
    const strict = createPolicy({}, { cwd: f.ws, home: f.home, unconfinedBash: "unconfined" });
    for (const p of [f.policy(), strict]) {
      await nextTurn();
      const decision = p.check({ kind: "exec", command: `sort ${SLOW} x` });
      expect(outcome(decision)).toMatch(/^bash glob too slow: /);
    }
  });

  it("another agent's Grep whose glob backtracks exponentially is refused instead of hanging its hook", {
    timeout: 30_000,
  }, async () => {
    await nextTurn();
    const f = createFixture();
    f.file(`.env.${"a".repeat(60)}`, "SECRET=1\n");
    const started = performance.now();
    const decision = f.policy().checkSearch({ root: f.ws, globs: [SLOW], subject: "Grep" });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(outcome(decision)).toMatch(
      /^glob too slow: Grep of .* refused: matching its glob "(\*a){12}\*b" took more than 0.3 s/,
    );
  });

  it("the checks of one batch share the budget until the event loop turns, so N commands cannot freeze the host N times as long", {
    timeout: 30_000,
  }, async () => {
    const f = createFixture();
    f.file("a".repeat(60));
    const policy = f.policy();
    await nextTurn();
    // A parallel batch is checked call after call before any runs, within one turn of the loop.
    const started = performance.now();
    const decisions = [1, 2, 3, 4].map(() => policy.check({ kind: "exec", command: `cat ${SLOW}` }));
    expect(performance.now() - started).toBeLessThan(300 * 2);
    expect(outcome(decisions[0] as Decision)).toMatch(/^bash glob too slow: .*took more than 0.3 s/);
    for (const d of decisions.slice(1)) {
      expect(outcome(d)).toMatch(
        /^bash glob too slow: .*was not matched: the checks of the calls before it took 0.3 s/,
      );
    }
    // An everyday glob of the same batch is refused too (it cannot be checked), and checked again once the loop turned.
    expect(outcome(policy.check({ kind: "exec", command: "cat .en*" }))).toMatch(/^bash glob too slow: /);
    await nextTurn();
    expect(outcome(policy.check({ kind: "exec", command: "cat .en*" }))).toMatch(/default denyRead \.env/);
  });
});
