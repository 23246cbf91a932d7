import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HOOK_PLAN_MODULE_URL, type HookPlanOptions, readHookPlan } from "@gatehouse/host/hook-plan";
import { checkCall, DECIDE_MODULE_URL } from "@gatehouse/protected-paths/decide";
import { EXTERNAL_MODULE_URL, type ToolAuditConfig } from "@gatehouse/tool-audit/external";
import type { CliIo } from "../io.ts";
import { enclosingProject } from "../project-root.ts";
import { mapAgentCall } from "./agent-tools.ts";
import type { HookAnswer } from "./hook-answer.ts";
import { finishHook, refuseUnmapped, runsShell, SHELL_DENIED, type Verdict } from "./hook-finish.ts";
import type { HookPayload } from "./hook-payload.ts";
import { hookPolicy } from "./hook-policy.ts";
import { searchVerdict } from "./hook-search.ts";

/**
 * The project whose policy applies: `--cwd`, else Claude Code's `CLAUDE_PROJECT_DIR`, else the
 * project the agent's cwd belongs to (`enclosingProject`: an agent started in a subdirectory of a
 * project is under that project's guards). Pinning the project keeps a model's `cd` elsewhere from choosing another
 * directory's settings (or none).
 * Contract: throws (the caller refuses the call) unless the project is an existing directory and
 * the agent's cwd is one too; `CLAUDE_PROJECT_DIR` must be absolute. A missing or mistyped
 * project has no settings, and deciding with none would let every call through unguarded.
 */
export function hookProjectDir(payload: HookPayload, io: CliIo, flag: string | undefined): string {
  requireDirectory(payload.cwd, "the agent's cwd");
  if (flag) return requireDirectory(resolve(io.cwd, flag), "the project directory (--cwd)");
  const claudeDir = payload.agent === "claude-code" ? io.env.CLAUDE_PROJECT_DIR : undefined;
  if (!claudeDir) return enclosingProject(payload.cwd, io.env);
  if (!isAbsolute(claudeDir))
    throw new Error(`CLAUDE_PROJECT_DIR ${JSON.stringify(claudeDir)} is not an absolute path`);
  return requireDirectory(resolve(claudeDir), "CLAUDE_PROJECT_DIR");
}

/** `dir` when it is an existing directory (links followed); otherwise throws naming `what`. */
function requireDirectory(dir: string, what: string): string {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new Error(`${what} ${dir} cannot be used (${code})`);
  }
  if (!isDirectory) throw new Error(`${what} ${dir} is not a directory`);
  return dir;
}

/**
 * The code that decides: a new version of any of it invalidates every stored plan. Each entry
 * names its own file (resolving the package specifiers again would cost a hook process ~5 ms).
 */
function decidingCode(): string[] {
  return [import.meta.url, HOOK_PLAN_MODULE_URL, DECIDE_MODULE_URL, EXTERNAL_MODULE_URL].map((url) =>
    fileURLToPath(url),
  );
}

/**
 * The full evaluation (`evaluateHook` of hook-evaluate.ts), passed in: it loads the host, so the
 * code that decides from a plan can be built and loaded without it.
 */
export type EvaluateHook = (options: {
  payload: HookPayload;
  io: CliIo;
  projectDir: string;
  plan: HookPlanOptions;
}) => Promise<HookAnswer>;

/**
 * Answers one hook call: maps it to effects, decides it (Pre) and records it in the audit.
 * The project's stored plan decides when none of its inputs changed (the first-party guards'
 * effective configuration, compiled here: no schema library, no extension loading); otherwise
 * the full evaluation runs and stores a new plan.
 * Contract: resolves with the answer; throws only for failures the caller turns into a refusal.
 */
export async function decideHook(
  payload: HookPayload,
  io: CliIo,
  cwdFlag: string | undefined,
  evaluate: EvaluateHook,
): Promise<HookAnswer> {
  const projectDir = hookProjectDir(payload, io, cwdFlag);
  const planOptions: HookPlanOptions = { cwd: projectDir, env: io.env, code: decidingCode() };
  const plan = readHookPlan(planOptions);
  if (!plan) {
    return evaluate({ payload, io, projectDir, plan: planOptions });
  }
  let mapped: ReturnType<typeof mapAgentCall>;
  try {
    mapped = mapAgentCall(payload, plan.agentHooks, projectDir);
  } catch (error) {
    const audit = (plan.toolAudit ?? undefined) as ToolAuditConfig | undefined;
    return refuseUnmapped({ payload, io, projectDir, audit, error });
  }
  let verdict: Verdict | undefined;
  if (payload.event === "PreToolUse") {
    verdict = { blocked: false };
    if (plan.protectedPaths) {
      const policy = hookPolicy({
        config: plan.protectedPaths,
        projectDir,
        env: io.env,
        agentHooks: plan.agentHooks,
        reserved: plan.reserved ?? [],
      });
      const decision = checkCall(mapped.effects, policy, { toolName: payload.toolName });
      if (!decision.allow) verdict = { blocked: true, blockedBy: "protected-paths", reason: decision.reason };
      else verdict = searchVerdict(mapped, policy, payload.toolName) ?? verdict;
    }
    if (!verdict.blocked && runsShell(mapped) && plan.agentHooks.bash === "deny") verdict = SHELL_DENIED;
  }
  return finishHook({
    payload,
    io,
    projectDir,
    effects: mapped.effects,
    verdict,
    audit: (plan.toolAudit ?? undefined) as ToolAuditConfig | undefined,
  });
}
