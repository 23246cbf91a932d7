import type { HookAgent, HookEventName } from "./hook-payload.ts";

/** What the hook process prints and how it exits. */
export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** No opinion: no output at all (printing "allow" would loosen the agent's own permission rules). */
export const NO_OPINION: HookAnswer = { stdout: "", stderr: "", exitCode: 0 };

/** Exit code 2: the one code both agents treat as blocking (others fail open in Claude Code). */
export const BLOCKING_EXIT = 2;

/**
 * Refuses a call in the agent's own protocol. Claude Code, before the call: a `deny` decision on
 * stdout with exit 0 (its reason goes to the model). Codex, and anything after the call: exit 2
 * with the reason on stderr (Codex blocks only with a non-empty stderr).
 * Contract: the reason is never empty.
 */
export function refuse(agent: HookAgent, event: HookEventName | undefined, reason: string): HookAnswer {
  const text = reason.trim() || "Gatehouse refused the call.";
  if (agent === "claude-code" && event === "PreToolUse") {
    const answer = {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: text },
    };
    return { stdout: `${JSON.stringify(answer)}\n`, stderr: "", exitCode: 0 };
  }
  return { stdout: "", stderr: `${text}\n`, exitCode: BLOCKING_EXIT };
}
