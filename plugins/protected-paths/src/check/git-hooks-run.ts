import path from "node:path";
import { configuredHooksFolders } from "../rules/git-hooks-path.ts";
import { runHostGit } from "../scan/host-git.ts";
import type { PolicyContext } from "./policy-context.ts";

/**
 * The hooks each git subcommand an unconfined line may run can start: a commit's own, and those
 * run when the index is written (`add`, and `status`, `diff`, `describe` refreshing it) or a ref
 * changes (`commit`, `branch`). `--no-verify` skips only some of a commit's, so it changes nothing here.
 */
const HOOKS_RUN_BY: Readonly<Record<string, readonly string[]>> = {
  commit: [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-rewrite",
    "pre-auto-gc",
    "reference-transaction",
    "post-index-change",
  ],
  add: ["post-index-change"],
  status: ["post-index-change"],
  diff: ["post-index-change"],
  describe: ["post-index-change"],
  branch: ["reference-transaction"],
};

/**
 * The folders git may run hooks from for a command in `ctx.cwd`: each root's `.git/hooks`, the
 * configured `core.hooksPath` folders, and what the host's git answers there (a worktree's common
 * folder, a repository above the project).
 */
function hooksFolders(ctx: PolicyContext): string[] {
  const roots = ctx.roots.map((r) => r.absolute);
  const folders = new Set([
    ...roots.map((root) => path.join(root, ".git", "hooks")),
    ...configuredHooksFolders(roots, ctx.home),
  ]);
  const answer = runHostGit(["rev-parse", "--git-path", "hooks"], { cwd: ctx.cwd });
  const told = answer?.status === 0 ? answer.stdout.replace(/\n$/, "") : "";
  if (told !== "") folders.add(path.resolve(ctx.cwd, told));
  return [...folders];
}

/**
 * A hook the repository has installed that `git <sub>` run in `ctx.cwd` may start, or `undefined`.
 * A hook is the user's, but it runs what the project holds (husky's default `npm test`, lint-staged
 * reading `package.json`): files the agent may change, so unconfined it is code the agent chose.
 * Contract: any entry under a hook's name counts, executable or not (fail closed).
 */
export function hookGitRuns(ctx: PolicyContext, sub: string): string | undefined {
  const hooks = Object.hasOwn(HOOKS_RUN_BY, sub) ? HOOKS_RUN_BY[sub] : undefined;
  if (hooks === undefined) return undefined;
  for (const folder of hooksFolders(ctx)) {
    for (const hook of hooks) {
      const p = path.join(folder, hook);
      if (ctx.fs.lstat(p) !== undefined) return p;
    }
  }
  return undefined;
}
