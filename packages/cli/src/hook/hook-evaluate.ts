import { evaluateToolCall, readAgentHookSettings } from "@gatehouse/host";
import { type HookPlanOptions, planFingerprint, planOf, writeHookPlan } from "@gatehouse/host/hook-plan";
import { checkCall } from "@gatehouse/protected-paths/decide";
import type { ToolAuditConfig } from "@gatehouse/tool-audit/external";
import type { CliIo } from "../io.ts";
import { PACKAGE_BASES } from "../package-bases.ts";
import { silentLogger } from "../run-command-support.ts";
import { mapAgentCall } from "./agent-tools.ts";
import { type HookAnswer, refuse } from "./hook-answer.ts";
import { finishHook, refuseUnmapped, runsShell, SHELL_DENIED, type Verdict } from "./hook-finish.ts";
import type { HookPayload } from "./hook-payload.ts";
import { hookPolicy } from "./hook-policy.ts";
import { searchVerdict } from "./hook-search.ts";

/**
 * The full path: loads the project as `gatehouse run` would (settings hierarchy, trust, required
 * guards, every extension's `tool_call` handlers) and asks it about the call; stores a plan when
 * the outcome can be reproduced from the first-party guards' configuration alone.
 * Contract: as `decideHook`.
 */
export async function evaluateHook(options: {
  payload: HookPayload;
  io: CliIo;
  projectDir: string;
  plan: HookPlanOptions;
}): Promise<HookAnswer> {
  const { payload, io, projectDir } = options;
  const before = planFingerprint(options.plan);
  const settings = readAgentHookSettings({ cwd: projectDir, env: io.env });
  let mapped: ReturnType<typeof mapAgentCall>;
  // A call whose input cannot be mapped is refused, and still recorded: the project is loaded for
  // its audit's configuration (the guards are asked about no effects, and their answer is not used).
  let unmappable: { error: unknown } | undefined;
  try {
    mapped = mapAgentCall(payload, settings, projectDir);
  } catch (error) {
    unmappable = { error };
    mapped = { effects: [], kind: "unmapped" };
  }
  const evaluation = await evaluateToolCall({
    cwd: projectDir,
    toolName: payload.toolName,
    input: payload.toolInput,
    effects: mapped.effects,
    env: io.env,
    packageBases: PACKAGE_BASES,
    logger: silentLogger(io),
  });
  if (evaluation.guardsRunning) {
    const plan = planOf(evaluation.extensions, settings, evaluation.reserved);
    if (plan) writeHookPlan(options.plan, plan, before);
  } else if (payload.event !== "PreToolUse") {
    // The guards themselves are down (bad settings, a required guard failing): say so after the call too.
    return refuse(payload.agent, payload.event, `Gatehouse could not record ${payload.toolName}: ${evaluation.reason}`);
  }
  const audit = evaluation.extensions.find((r) => r.name === "tool-audit" && r.status === "loaded");
  const auditConfig = audit?.config?.value as ToolAuditConfig | undefined;
  if (unmappable) return refuseUnmapped({ payload, io, projectDir, audit: auditConfig, ...unmappable });
  let verdict: Verdict | undefined;
  if (payload.event === "PreToolUse") {
    if (evaluation.outcome === "blocked") {
      verdict = {
        blocked: true,
        blockedBy: evaluation.blockedBy ?? "gatehouse",
        reason: evaluation.reason ?? "refused",
      };
    } else if (runsShell(mapped) && settings.bash === "deny") verdict = SHELL_DENIED;
    else verdict = unconfinedShell({ evaluation, mapped, payload, projectDir, env: io.env, settings });
  }
  return finishHook({ payload, io, projectDir, effects: mapped.effects, verdict, audit: auditConfig });
}

/**
 * The guards decided the call as `gatehouse run` would, where a sandbox confines commands and a
 * read filter narrows searches; the agent has neither, so its commands are decided again by
 * protected-paths' unconfined rules (see `hookPolicy`), and a `Grep` by what it would read below
 * its root.
 */
function unconfinedShell(options: {
  evaluation: Awaited<ReturnType<typeof evaluateToolCall>>;
  mapped: ReturnType<typeof mapAgentCall>;
  payload: HookPayload;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  settings: ReturnType<typeof readAgentHookSettings>;
}): Verdict {
  const execs = options.mapped.effects.filter((e) => e.kind === "exec");
  const guard = options.evaluation.extensions.find((r) => r.name === "protected-paths" && r.status === "loaded");
  const search = options.mapped.search !== undefined;
  if ((execs.length === 0 && !search) || guard?.config === undefined) return { blocked: false };
  const policy = hookPolicy({
    config: guard.config.value,
    projectDir: options.projectDir,
    env: options.env,
    agentHooks: options.settings,
    reserved: options.evaluation.reserved,
  });
  const decision = execs.length > 0 ? checkCall(execs, policy, { toolName: options.payload.toolName }) : undefined;
  if (decision !== undefined && !decision.allow) {
    return { blocked: true, blockedBy: "protected-paths", reason: decision.reason };
  }
  return searchVerdict(options.mapped, policy, options.payload.toolName) ?? { blocked: false };
}
