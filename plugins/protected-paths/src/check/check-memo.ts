import type { ToolEffect } from "@gatehouse/sdk";
import type { Decision } from "../decision.ts";
import type { Policy } from "../policy.ts";

/**
 * Decisions about reads and writes, remembered for one synchronous stretch of checks: the preflight
 * of a parallel batch whose handlers never await, where 200 calls reading one file resolve it once
 * instead of 200 times (a realpath and an lstat each).
 * Why it is sound: the memo is emptied by a microtask queued at its first entry, so it never
 * outlives the stretch that filled it, and within that stretch no tool of the batch runs (the host
 * starts tools only after every call is checked, and a sequential batch awaits each call before
 * checking the next, which runs the microtask first). What can still change a path inside the
 * stretch (another process, an extension's own handler) is the time-of-check race every check has;
 * the host's pins close it for the built-in tools, which refuse a file that is not the one checked.
 * Contract: `check(policy, effect)` equals `policy.check(effect)` at the stretch's first check of
 * that access and path; other effects, and another policy, are decided afresh.
 */
export class CheckMemo {
  #policy: Policy | undefined;
  readonly #reads = new Map<string, Decision>();
  readonly #writes = new Map<string, Decision>();
  #pending = false;
  readonly #clear = () => {
    this.#pending = false;
    this.#policy = undefined;
    this.#reads.clear();
    this.#writes.clear();
  };

  /** The policy's decision about `effect`, from this stretch's memo when it has one. */
  check(policy: Policy, effect: ToolEffect): Decision {
    const kind = (effect as { kind?: unknown } | null)?.kind;
    const path = (effect as { path?: unknown } | null)?.path;
    if ((kind !== "read" && kind !== "write") || typeof path !== "string") return policy.check(effect);
    if (policy !== this.#policy) {
      this.#reads.clear();
      this.#writes.clear();
      this.#policy = policy;
    }
    const memo = kind === "read" ? this.#reads : this.#writes;
    const known = memo.get(path);
    if (known !== undefined) return known;
    const decision = policy.check(effect);
    memo.set(path, decision);
    if (!this.#pending) {
      this.#pending = true;
      queueMicrotask(this.#clear);
    }
    return decision;
  }
}
