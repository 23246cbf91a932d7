import { lstatSync } from "node:fs";
import path from "node:path";
import type { SandboxLayout, SandboxProfile } from "@gatehouse/sdk";
import { matchView } from "../check/match-view.ts";
import type { PolicyContext } from "../check/policy-context.ts";
import { showPath } from "../paths/path-text.ts";
import type { DenyIndex } from "../scan/deny-index.ts";
import { planLayout } from "./plan-layout.ts";
import { describeRemoval, quarantine, removePlaceholders } from "./quarantine.ts";
import { baselineOf, reviewRun, ViolationLog } from "./review-run.ts";
import { StagedDependencies } from "./staged-repositories.ts";
import { StuckPaths } from "./stuck-paths.ts";

/** Makes the sandbox profile of each confined call from one policy. */
export interface SandboxPlanner {
  /** A profile for one call: each process it starts gets a fresh layout and a review afterwards. */
  profile(options: { quarantineDir: () => string }): SandboxProfile;
}

function within(base: string, p: string): boolean {
  const rel = path.relative(base, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Whether a running sandbox's layout names `p` or something below it (moving `p` would break its mounts). */
function usedBy(layouts: Iterable<SandboxLayout>, p: string): boolean {
  for (const layout of layouts) {
    for (const listed of [...layout.readOnly, ...layout.masked, ...layout.pinned]) if (within(p, listed)) return true;
  }
  return false;
}

/**
 * The sandbox side of a policy: layouts from the policy's rules and the deny index, reviews that
 * undo what a run created under a deny rule, and one violation log for every run of the policy.
 * Contract: `prepare` refreshes the index and plans from what exists at that moment; its review
 * refreshes again after the run. Both are synchronous, so parallel runs never interleave them. A
 * path to take out of the workspace that a still-running sandbox mounts stays where it is (that
 * sandbox holds it read-only or masked) until no running sandbox uses it, so removing it can
 * never break a sandbox that is starting.
 */
export function createSandboxPlanner(options: {
  ctx: PolicyContext;
  index: () => DenyIndex;
  network: boolean;
}): SandboxPlanner {
  const { ctx } = options;
  const log = new ViolationLog();
  const view = (absolute: string) => matchView(ctx, absolute);
  const running = new Set<SandboxLayout>();
  const pending: { path: string; dir: () => string; then?: (() => void) | undefined }[] = [];
  // Protected paths a review could not take out: no sandbox starts while one is still there.
  const stuck = new StuckPaths((p) => ctx.roots.some((r) => within(r.real, p)));
  const writable = (p: string) => ctx.allowOutside.write || ctx.roots.some((r) => within(r.real, p));
  // Submodule entries in node_modules (which the index does not walk), per root, across runs.
  const staged = ctx.roots.map((r) => new StagedDependencies(r.real));

  const settle = () => {
    for (const entry of [...pending]) {
      if (usedBy(running, entry.path)) continue;
      pending.splice(pending.indexOf(entry), 1);
      try {
        quarantine(entry.path, entry.dir);
        entry.then?.();
      } catch {
        stuck.add(entry.path, entry.dir);
      }
    }
  };

  return {
    profile: ({ quarantineDir }) => ({
      prepare() {
        stuck.load(quarantineDir);
        for (const p of stuck.values()) {
          if (lstatSync(p, { throwIfNoEntry: false }) === undefined) stuck.delete(p, quarantineDir);
          else if (!usedBy(running, p)) {
            try {
              quarantine(p, quarantineDir);
              stuck.delete(p, quarantineDir);
            } catch {
              // still there: refused below
            }
          }
        }
        if (stuck.size > 0) {
          throw new Error(
            `an earlier command created ${stuck.values().map(showPath).join(", ")}, which the path policy protects, and it could not be taken out of the workspace; remove it before running more commands`,
          );
        }
        const index = options.index();
        index.refresh();
        const matches = index.matches();
        const layout = planLayout({
          roots: ctx.roots,
          rules: ctx.rules,
          matches,
          aliasesOf: (files) => index.aliasesOf(files),
          allowOutside: ctx.allowOutside,
          network: options.network,
          view,
        });
        const baseline = baselineOf(matches);
        // Protected absolute paths inside the workspace that do not exist yet (a core.hooksPath
        // folder not created, a dangling protected link's target): the index does not look in
        // node_modules, so the review checks each by name.
        const absent = ctx.rules.write.flatMap((rule) =>
          rule.absolute !== undefined &&
          !/[*?[\]{}]/.test(rule.absolute) &&
          writable(rule.absolute) &&
          lstatSync(rule.absolute, { throwIfNoEntry: false }) === undefined
            ? [{ path: rule.absolute, rule }]
            : [],
        );
        // The masks bwrap mounts inside the workspace, and who they were when planned.
        const masks = new Map(
          layout.masked.filter(writable).map((p) => {
            const st = lstatSync(p, { throwIfNoEntry: false });
            return [p, st ? { dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs } : undefined] as const;
          }),
        );
        // Which staged submodule folders in node_modules hold a repository as the run starts.
        const repositories = staged.map((s) => ({ watch: s, before: s.before() }));
        const mark = log.mark();
        running.add(layout);
        const remove = (p: string, then?: () => void) => {
          if (!usedBy(running, p)) {
            const fate = describeRemoval(quarantine(p, quarantineDir));
            then?.();
            return fate;
          }
          pending.push({ path: p, dir: quarantineDir, then });
          return "taken out of the workspace as soon as the commands running next to this one end";
        };
        // What a removal that fails becomes: a violation that stays until the path is gone.
        const removeOrKeep = (p: string) => {
          try {
            return remove(p);
          } catch (error) {
            stuck.add(p, quarantineDir);
            return `left in place, as it could not be taken out (${(error as Error).message}); no sandboxed command runs in this workspace until it is gone`;
          }
        };
        return {
          layout,
          review: () => {
            running.delete(layout);
            try {
              removePlaceholders(masks);
              const violations = reviewRun({
                index,
                baseline,
                log,
                mark,
                remove,
                writable,
                stuck: (p) => stuck.add(p, quarantineDir),
              });
              const gitRule = ctx.rules.write.find((r) => r.label === "default denyWrite .git");
              for (const { watch, before } of repositories) {
                if (gitRule === undefined) continue;
                for (const repo of watch.planted(before)) {
                  if (violations.some((v) => v.path === repo)) continue;
                  const fate = removeOrKeep(repo);
                  const reason = `The command staged ${showPath(path.dirname(repo))} as a submodule with a repository of its own in a dependency folder, which git run in the project would enter and configure itself from (${gitRule.label}); the repository was ${fate}.`;
                  log.record({ path: repo, rule: gitRule.label, reason });
                  violations.push({ path: repo, rule: gitRule.label, reason });
                }
              }
              for (const { path: p, rule } of absent) {
                if (lstatSync(p, { throwIfNoEntry: false }) === undefined) continue;
                if (violations.some((v) => v.path === p)) continue;
                const fate = removeOrKeep(p);
                const reason = `The command created ${showPath(p)}, which the path policy protects (${rule.label}); it was ${fate}.`;
                log.record({ path: p, rule: rule.label, reason });
                violations.push({ path: p, rule: rule.label, reason });
              }
              return violations;
            } finally {
              settle();
            }
          },
        };
      },
    }),
  };
}
