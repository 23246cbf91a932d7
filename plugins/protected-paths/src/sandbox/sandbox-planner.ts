import type { SandboxProfile } from "@gatehouse/sdk";
import { matchView } from "../check/match-view.ts";
import type { PolicyContext } from "../check/policy-context.ts";
import type { DenyIndex } from "../scan/deny-index.ts";
import { planLayout } from "./plan-layout.ts";
import { baselineOf, reviewRun, ViolationLog } from "./review-run.ts";

/** Makes the sandbox profile of each confined call from one policy. */
export interface SandboxPlanner {
  /** A profile for one call: each process it starts gets a fresh layout and a review afterwards. */
  profile(options: { quarantineDir: () => string }): SandboxProfile;
}

/**
 * The sandbox side of a policy: layouts from the policy's rules and the deny index, reviews that
 * undo what a run created under a deny rule, and one violation log for every run of the policy.
 * Contract: `prepare` refreshes the index and plans from what exists at that moment; its review
 * refreshes again after the run. Both are synchronous, so parallel runs never interleave them.
 */
export function createSandboxPlanner(options: {
  ctx: PolicyContext;
  index: () => DenyIndex;
  network: boolean;
}): SandboxPlanner {
  const { ctx } = options;
  const log = new ViolationLog();
  const view = (absolute: string) => matchView(ctx, absolute);
  return {
    profile: ({ quarantineDir }) => ({
      prepare() {
        const index = options.index();
        index.refresh();
        const matches = index.matches();
        const layout = planLayout({
          roots: ctx.roots,
          rules: ctx.rules,
          matches,
          allowOutside: ctx.allowOutside,
          network: options.network,
          view,
        });
        const baseline = baselineOf(matches);
        const mark = log.mark();
        return { layout, review: () => reviewRun({ index, baseline, log, mark, quarantineDir }) };
      },
    }),
  };
}
