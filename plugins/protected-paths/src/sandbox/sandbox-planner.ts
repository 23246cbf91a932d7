import path from "node:path";
import type { SandboxLayout, SandboxProfile, SandboxViolation } from "@gatehouse/sdk";
import { matchView } from "../check/match-view.ts";
import type { PolicyContext } from "../check/policy-context.ts";
import { showPath } from "../paths/path-text.ts";
import type { DenyRule, MatchView } from "../rules/deny-rule.ts";
import type { AliasTable } from "../scan/alias-table.ts";
import { DenyIndex } from "../scan/deny-index.ts";
import { expandAbsolute, inOwnMount } from "../scan/expand-absolute.ts";
import { lstatAt } from "../scan/raw-fs.ts";
import { literalPaths } from "./literal-paths.ts";
import { planLayout } from "./plan-layout.ts";
import { describeRemoval, quarantine, removePlaceholders } from "./quarantine.ts";
import { type Baseline, baselineOf, reviewRun, ViolationLog } from "./review-run.ts";
import { SEQUENCER_PROGRAM, sequencerStates, stateRunsProgram, stateStamp } from "./sequencer-state.ts";
import { StagedDependencies } from "./staged-repositories.ts";
import { StuckPaths } from "./stuck-paths.ts";
import { baselineOfRun, UnreviewedRuns } from "./unreviewed-runs.ts";

/** Makes the sandbox profile of each confined call from one policy. */
export interface SandboxPlanner {
  /** A profile for one call: each process it starts gets a fresh layout and a review afterwards. */
  profile(options: { quarantineDir: () => string }): SandboxProfile;
}

/** Whether something is at `p`: an entry that cannot be examined counts as there (fail closed). */
function present(p: string): boolean {
  try {
    return lstatAt(p) !== undefined;
  } catch {
    return true;
  }
}

/** Who is at `p` for a placeholder check, or undefined. */
function who(p: string): { dev: number; ino: number; ctimeMs: number } | undefined {
  try {
    const st = lstatAt(p);
    return st ? { dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs } : undefined;
  } catch {
    return undefined;
  }
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

/** An absolute write rule with wildcards before its end (not only a trailing `/**`), outside every root. */
function wildcardOutside(rule: DenyRule): boolean {
  const at = rule.absolute;
  return at !== undefined && /[*?[\]{}]/.test(at) && !inOwnMount(at);
}

/** The existing paths `rule` names itself (never the prefix `expandAbsolute` falls back to past its limit). */
function namedBy(rule: DenyRule, view: (absolute: string) => MatchView): string[] {
  return expandAbsolute(rule, view).filter((p) => {
    const v = view(p);
    return rule.subtree ? rule.matchesRoot(v) : rule.matches(v);
  });
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
  /** The files read rules deny, by `dev:ino` (see `LayoutInput.readDenied`), listed afresh per command. */
  readDenied?: () => AliasTable;
  /** A new index that reads the whole tree afresh (default: a `DenyIndex` of the policy's roots and rules). */
  freshIndex?: () => DenyIndex;
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
  const realRoots = [...new Set(ctx.roots.map((r) => r.real))];
  // Runs whose review failed: reviewed again (against their own baseline) before any sandbox starts.
  const unreviewed = new UnreviewedRuns(realRoots);
  // What a review made up for at the start of a later run: reported with that run's review.
  let carried: SandboxViolation[] = [];
  // Why a failed review could not even be recorded: no sandbox starts again in this process.
  let unrecorded: string | undefined;
  const freshIndex =
    options.freshIndex ?? (() => new DenyIndex({ roots: realRoots, rules: ctx.rules, view, folding: ctx.folding }));

  /**
   * A review that could not complete: the tree is read afresh and reviewed again; when that fails
   * too, every literal path a write rule names that the run created is taken out, and the run is
   * remembered (`UnreviewedRuns`) so that no later run starts, here or in another process, before
   * a review of the whole tree against this run's baseline completes.
   */
  const rescue = (
    error: unknown,
    run: {
      baseline: Baseline;
      unreadable: ReadonlySet<string>;
      mark: number;
      remove: (p: string, then?: () => void) => string;
      removeOrKeep: (p: string) => string;
      quarantineDir: () => string;
    },
  ): SandboxViolation[] => {
    const first = (error as Error)?.message ?? String(error);
    try {
      return reviewRun({
        index: freshIndex(),
        baseline: run.baseline,
        log,
        mark: run.mark,
        remove: run.remove,
        writable,
        unreadableBefore: run.unreadable,
        roots: realRoots,
        stuck: (p) => stuck.add(p, run.quarantineDir),
      });
    } catch (again) {
      const why = `${first}; read afresh: ${(again as Error)?.message ?? String(again)}`;
      const out: SandboxViolation[] = [];
      for (const { path: p, rule } of literalPaths(ctx.rules.write, realRoots)) {
        if (run.baseline.has(p) || !writable(p) || !present(p)) continue;
        const reason = `The command created ${showPath(p)}, which the path policy protects (${rule.label}); it was ${run.removeOrKeep(p)}.`;
        log.record({ path: p, rule: rule.label, reason });
        out.push({ path: p, rule: rule.label, reason });
      }
      let remembered: string;
      try {
        unreviewed.record(run.quarantineDir, { baseline: run.baseline, unreadable: run.unreadable, why });
        remembered = "no sandboxed command runs in this workspace until a later review of the whole tree completes";
      } catch (markerError) {
        const reason = (markerError as Error).message;
        unrecorded = why;
        remembered = `its record could not be written (${reason}), so no sandboxed command runs again in this process`;
      }
      const reason = `The path policy could not check everything the command changed (${why}); what it names at fixed places was taken out, and ${remembered}.`;
      out.push({ path: realRoots[0] ?? ctx.cwd, rule: "sandbox review failed", reason });
      return out;
    }
  };

  /** Reviews each run a failed review left behind, against that run's own baseline; throws when one still fails. */
  const reviewLeftovers = (quarantineDir: () => string) => {
    for (const run of unreviewed.load(quarantineDir)) {
      let violations: SandboxViolation[];
      try {
        violations = reviewRun({
          index: freshIndex(),
          baseline: baselineOfRun(run, ctx.rules.write),
          log,
          mark: log.mark(),
          remove: (p) => describeRemoval(quarantine(p, quarantineDir)),
          writable,
          unreadableBefore: new Set(run.unreadable),
          roots: realRoots,
          stuck: (p) => stuck.add(p, quarantineDir),
        });
      } catch (error) {
        throw new Error(
          `an earlier command's changes could not be checked (${run.why}), and checking them again failed (${(error as Error).message}); remove what it created and the record ${run.marker} before running more commands`,
        );
      }
      unreviewed.forget(run);
      carried.push(...violations);
    }
  };

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
        if (unrecorded !== undefined) {
          throw new Error(
            `an earlier command's changes could not be checked (${unrecorded}) nor recorded for a later check; start gatehouse again to check them`,
          );
        }
        stuck.load(quarantineDir);
        reviewLeftovers(quarantineDir);
        for (const p of stuck.values()) {
          if (!present(p)) stuck.delete(p, quarantineDir);
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
          readDenied: options.readDenied?.(),
          allowOutside: ctx.allowOutside,
          network: options.network,
          view,
        });
        const baseline = baselineOf(matches);
        const unreadable = new Set(index.unreadable().keys());
        // Protected absolute paths inside the workspace that do not exist yet (a core.hooksPath
        // folder not created, a dangling protected link's target): the index does not look in
        // node_modules, so the review checks each by name.
        const absent = ctx.rules.write.flatMap((rule) =>
          rule.absolute !== undefined &&
          !/[*?[\]{}]/.test(rule.absolute) &&
          writable(rule.absolute) &&
          !present(rule.absolute)
            ? [{ path: rule.absolute, rule }]
            : [],
        );
        // Absolute write rules with wildcards outside the workspace (`~/.local/lib/python*/site-packages/*.pth`,
        // a configured `~/notes/*.md`): with writes outside allowed, a file the run creates there
        // is in no index, so each is expanded again after the run.
        const globbed = ctx.allowOutside.write ? ctx.rules.write.filter(wildcardOutside) : [];
        const globbedBefore = new Set(globbed.flatMap((rule) => namedBy(rule, view)));
        // The masks bwrap mounts inside the workspace, and who they were when planned.
        const masks = new Map(layout.masked.filter(writable).map((p) => [p, who(p)] as const));
        // Each repository's sequencer state as the run starts: a rebase todo the run leaves with
        // exec lines, or a strategy that is not git's own, is code the next `--continue` on the host runs.
        const states = sequencerStates(matches)
          .filter((s) => writable(s.path))
          .map((state) => ({ state, before: stateStamp(state.path) }));
        // Which staged submodule folders in node_modules hold a repository as the run starts.
        const repositories = staged.map((s) => ({ watch: s, before: s.before() }));
        // The run is recorded before it starts and forgotten once reviewed: a process killed
        // meanwhile (SIGTERM, SIGHUP, a second Ctrl-C) never reviews it, so the next run does.
        const inFlight = unreviewed.record(quarantineDir, {
          baseline,
          unreadable,
          why: "the process that ran it ended before it checked what the command changed",
          inFlight: true,
        });
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
              const earlier = carried;
              carried = [];
              let violations: SandboxViolation[];
              try {
                violations = reviewRun({
                  index,
                  baseline,
                  log,
                  mark,
                  remove,
                  writable,
                  unreadableBefore: unreadable,
                  roots: realRoots,
                  stuck: (p) => stuck.add(p, quarantineDir),
                });
              } catch (error) {
                violations = rescue(error, { baseline, unreadable, mark, remove, removeOrKeep, quarantineDir });
              }
              violations.unshift(...earlier);
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
                if (!present(p)) continue;
                if (violations.some((v) => v.path === p)) continue;
                const fate = removeOrKeep(p);
                const reason = `The command created ${showPath(p)}, which the path policy protects (${rule.label}); it was ${fate}.`;
                log.record({ path: p, rule: rule.label, reason });
                violations.push({ path: p, rule: rule.label, reason });
              }
              for (const rule of globbed) {
                for (const p of namedBy(rule, view)) {
                  if (globbedBefore.has(p) || violations.some((v) => v.path === p)) continue;
                  const fate = removeOrKeep(p);
                  const reason = `The command created ${showPath(p)}, which the path policy protects (${rule.label}); it was ${fate}.`;
                  log.record({ path: p, rule: rule.label, reason });
                  violations.push({ path: p, rule: rule.label, reason });
                }
              }
              for (const { state, before } of states) {
                const p = state.path;
                if (stateStamp(p) === before || violations.some((v) => v.path === p)) continue;
                const why = stateRunsProgram(state);
                if (why === undefined) continue;
                const fate = removeOrKeep(p);
                const reason = `The command left ${showPath(p)}: ${why}; it was ${fate}.`;
                log.record({ path: p, rule: SEQUENCER_PROGRAM, reason });
                violations.push({ path: p, rule: SEQUENCER_PROGRAM, reason });
              }
              return violations;
            } finally {
              settle();
              unreviewed.discard(inFlight);
            }
          },
        };
      },
    }),
  };
}
