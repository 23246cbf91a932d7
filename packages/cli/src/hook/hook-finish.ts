import { ensurePrivateDir, gatehouseHome } from "@gatehouse/host/hook-plan";
import type { ToolEffect } from "@gatehouse/sdk";
import { type ExternalCallEvent, recordExternalCalls, type ToolAuditConfig } from "@gatehouse/tool-audit/external";
import { cliVersion } from "../cli-version.ts";
import type { CliIo } from "../io.ts";
import { type HookAnswer, NO_OPINION, refuse } from "./hook-answer.ts";
import type { HookPayload } from "./hook-payload.ts";

/** What the guards decided about a call before it runs (undefined after it ran). */
export type Verdict = { blocked: true; blockedBy: string; reason: string } | { blocked: false };

/** The refusal for a shell call when `agentHooks.bash` is "deny". */
export const SHELL_DENIED: Verdict = {
  blocked: true,
  blockedBy: "agentHooks",
  reason: `Shell commands are refused in this project's agent hooks (agentHooks.bash is "deny"): outside Gatehouse they would run without its sandbox.`,
};

/** Whether a call runs a shell command (a shell tool, or a mapped tool's `exec` argument). */
export function runsShell(mapped: { effects: readonly ToolEffect[] }): boolean {
  return mapped.effects.some((effect) => effect.kind === "exec");
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
    const end = {
      outcome: "blocked",
      isError: true,
      blockedBy: verdict.blockedBy,
      reason: verdict.reason,
      effects,
    } as const;
    return [
      { kind: "start", ...call },
      { kind: "end", ...call, ...end },
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

/** What finishing a call is told: the call, what it touches, the guards' verdict, the audit's configuration. */
interface FinishOptions {
  payload: HookPayload;
  io: CliIo;
  projectDir: string;
  effects: ToolEffect[];
  verdict: Verdict | undefined;
  audit: ToolAuditConfig | undefined;
}

/** Records the call in the project's audit (when tool-audit is enabled); the refusal when it cannot be recorded. */
async function recordCall(options: FinishOptions): Promise<HookAnswer | undefined> {
  const { payload, io } = options;
  if (!options.audit) return undefined;
  const home = gatehouseHome(io.env);
  const recorded = await recordExternalCalls(
    {
      cwd: options.projectDir,
      home,
      privateDir: (...segments) => ensurePrivateDir(home, ...segments),
      config: options.audit,
      version: cliVersion(),
    },
    auditEvents(payload, options.effects, options.verdict),
  );
  if (recorded.ok || !recorded.stops) return undefined;
  const why = `${recorded.error}; tool-audit does not let tools run unaudited`;
  return refuse(payload.agent, payload.event, `Gatehouse refused ${payload.toolName}: ${why}.`);
}

/**
 * Records the call in the project's audit (when tool-audit is enabled) and answers the agent.
 * Contract: an audit that cannot be written refuses the call (Pre) or reports on the blocking
 * channel (Post), unless tool-audit's `onWriteError` is "warn"; a blocked verdict is a refusal
 * naming the guard; otherwise no output.
 */
export async function finishHook(options: FinishOptions): Promise<HookAnswer> {
  const failed = await recordCall(options);
  if (failed) return failed;
  const { payload, verdict } = options;
  if (verdict?.blocked)
    return refuse(payload.agent, payload.event, `Gatehouse (${verdict.blockedBy}): ${verdict.reason}`);
  return NO_OPINION;
}

/**
 * Refuses a call whose input cannot be mapped onto effects (a malformed or Windows path, a glob
 * that climbs unseen, a patch naming no file), and records it like any refused call: before it
 * runs as blocked by Gatehouse with the reason, after it ran (the agent ran it anyway) its end.
 * Contract: as `finishHook`; the refusal names the tool and why its input cannot be checked.
 */
export async function refuseUnmapped(
  options: Omit<FinishOptions, "effects" | "verdict"> & { error: unknown },
): Promise<HookAnswer> {
  const { payload } = options;
  const why = options.error instanceof Error ? options.error.message : String(options.error);
  const verdict: Verdict | undefined =
    payload.event === "PreToolUse" ? { blocked: true, blockedBy: "gatehouse", reason: why } : undefined;
  const failed = await recordCall({ ...options, effects: [], verdict });
  return failed ?? refuse(payload.agent, payload.event, `Gatehouse refused ${payload.toolName}: ${why}.`);
}
