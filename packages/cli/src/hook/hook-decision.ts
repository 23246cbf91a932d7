import { resolve } from "node:path";
import {
  type CallEvaluation,
  ensurePrivateDir,
  evaluateToolCall,
  gatehouseHome,
  readAgentHookSettings,
} from "@gatehouse/host";
import type { ToolEffect } from "@gatehouse/sdk";
import { type ExternalCallEvent, recordExternalCalls } from "@gatehouse/tool-audit";
import type { CliIo } from "../io.ts";
import { PACKAGE_BASES } from "../package-bases.ts";
import { silentLogger } from "../run-command-support.ts";
import { mapAgentCall } from "./agent-tools.ts";
import { type HookAnswer, NO_OPINION, refuse } from "./hook-answer.ts";
import type { HookPayload } from "./hook-payload.ts";

/**
 * The project whose policy applies: `--cwd`, else Claude Code's `CLAUDE_PROJECT_DIR`, else the
 * agent's cwd. Pinning the project keeps a model's `cd` elsewhere from choosing another
 * directory's settings (or none).
 */
export function hookProjectDir(payload: HookPayload, io: CliIo, flag: string | undefined): string {
  if (flag) return resolve(io.cwd, flag);
  const claudeDir = payload.agent === "claude-code" ? io.env.CLAUDE_PROJECT_DIR : undefined;
  return claudeDir ? resolve(claudeDir) : payload.cwd;
}

/** The size of the agent's result, as a tool result whose text is only ever measured, never kept. */
function measured(value: unknown) {
  const text = typeof value === "string" ? value : (JSON.stringify(value ?? "") ?? "");
  return { content: [{ type: "text" as const, text }] };
}

function auditEvents(payload: HookPayload, effects: ToolEffect[], verdict: Verdict | undefined): ExternalCallEvent[] {
  const call = { toolCallId: payload.toolUseId, tool: payload.toolName, args: payload.toolInput };
  if (payload.event === "PreToolUse") {
    if (!verdict?.blocked) return [{ kind: "start", ...call }];
    return [
      { kind: "start", ...call },
      {
        kind: "end",
        ...call,
        outcome: "blocked",
        isError: true,
        blockedBy: verdict.blockedBy,
        reason: verdict.reason,
        effects,
      },
    ];
  }
  const failed = payload.event === "PostToolUseFailure";
  return [
    {
      kind: "end",
      ...call,
      outcome: failed ? "failed" : "executed",
      isError: failed,
      result: measured(failed ? payload.error : payload.toolResponse),
      effects,
    },
  ];
}

type Verdict = { blocked: true; blockedBy: string; reason: string } | { blocked: false };

function verdictOf(evaluation: CallEvaluation, shell: boolean, bashMode: string | undefined): Verdict {
  if (evaluation.outcome === "blocked") {
    return { blocked: true, blockedBy: evaluation.blockedBy ?? "gatehouse", reason: evaluation.reason ?? "refused" };
  }
  if (shell && bashMode === "deny") {
    return {
      blocked: true,
      blockedBy: "agentHooks",
      reason: `Shell commands are refused in this project's agent hooks (agentHooks.bash is "deny"): outside Gatehouse they would run without its sandbox.`,
    };
  }
  return { blocked: false };
}

/**
 * Answers one hook invocation of Claude Code or Codex: maps the call to effects, asks the
 * project's effective guards (Pre) and records it in the project's audit (Pre: start, and end
 * when refused; Post/Failure: end, paired by the call's id).
 * Contract: resolves with the answer to print; anything that goes wrong — settings, mapping,
 * guards, audit — refuses the call (Pre) or reports through the agent's blocking channel (Post),
 * naming the cause. No opinion is no output.
 */
export async function decideHook(payload: HookPayload, io: CliIo, cwdFlag: string | undefined): Promise<HookAnswer> {
  const projectDir = hookProjectDir(payload, io, cwdFlag);
  const settings = readAgentHookSettings({ cwd: projectDir, env: io.env });
  let mapped: ReturnType<typeof mapAgentCall>;
  try {
    mapped = mapAgentCall(payload, settings, projectDir);
  } catch (error) {
    const reason = `Gatehouse refused ${payload.toolName}: ${(error as Error).message}.`;
    return refuse(payload.agent, payload.event, reason);
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
  const pre = payload.event === "PreToolUse";
  const verdict = pre ? verdictOf(evaluation, mapped.kind === "shell", settings.bash) : undefined;
  const audit = evaluation.extensions.find((r) => r.name === "tool-audit" && r.status === "loaded");
  if (audit) {
    const home = gatehouseHome(io.env);
    const recorded = await recordExternalCalls(
      {
        cwd: projectDir,
        home,
        privateDir: (...segments) => ensurePrivateDir(home, ...segments),
        config: audit.config?.value,
      },
      auditEvents(payload, mapped.effects, verdict),
    );
    if (!recorded.ok && recorded.stops) {
      return refuse(
        payload.agent,
        payload.event,
        `Gatehouse refused ${payload.toolName}: ${recorded.error}; tool-audit does not let tools run unaudited.`,
      );
    }
  } else if (!pre && evaluation.outcome === "blocked" && evaluation.blockedBy === "gatehouse") {
    // The guards themselves are down (bad settings, a required guard failing): say so after the call too.
    return refuse(payload.agent, payload.event, `Gatehouse could not record ${payload.toolName}: ${evaluation.reason}`);
  }
  if (verdict?.blocked) {
    return refuse(payload.agent, payload.event, `Gatehouse (${verdict.blockedBy}): ${verdict.reason}`);
  }
  return NO_OPINION;
}
