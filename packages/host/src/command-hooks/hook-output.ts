import type { CommandHookEvent } from "../config/settings-schema.ts";

/** How one hook command ended, as the runner saw it. */
export interface CommandRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when it could not start or ran outside what its sandbox allowed: nothing it said counts. */
  failure?: string;
}

/** What one hook answered, in Gatehouse's terms. */
export type HookVerdict =
  | { kind: "none" }
  /** Before the call: refuse it. After: tell the model (appended to the result). */
  | { kind: "block"; reason: string }
  | { kind: "update"; input: Record<string, unknown> }
  | { kind: "result"; additionalContext?: string; replaceOutput?: unknown; feedback?: string }
  /** The hook itself failed: crashed, timed out, answered something unreadable. Fails closed. */
  | { kind: "failed"; reason: string };

const MAX_TEXT = 2000;

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_TEXT ? `…${trimmed.slice(-MAX_TEXT)}` : trimmed;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function preToolUse(answer: Record<string, unknown>, specific: Record<string, unknown>): HookVerdict {
  const decision = specific.permissionDecision ?? answer.decision;
  const reason = String(specific.permissionDecisionReason ?? answer.reason ?? "").trim();
  switch (decision) {
    case "deny":
    case "block":
      return { kind: "block", reason: reason || "denied by the hook" };
    case "ask":
      return {
        kind: "block",
        reason: `asks for the user's confirmation, which Gatehouse cannot give${reason ? `: ${reason}` : ""}`,
      };
    case undefined:
    case "allow":
    case "approve":
    case "defer":
      break;
    default:
      return { kind: "failed", reason: `answered the unknown permissionDecision ${JSON.stringify(decision)}` };
  }
  if (specific.updatedInput !== undefined) {
    if (!isObject(specific.updatedInput))
      return { kind: "failed", reason: "answered an updatedInput that is not an object" };
    return { kind: "update", input: specific.updatedInput };
  }
  return { kind: "none" };
}

function postToolUse(answer: Record<string, unknown>, specific: Record<string, unknown>): HookVerdict {
  const verdict: Extract<HookVerdict, { kind: "result" }> = { kind: "result" };
  if (specific.additionalContext !== undefined) {
    if (typeof specific.additionalContext !== "string")
      return { kind: "failed", reason: "answered an additionalContext that is not text" };
    verdict.additionalContext = specific.additionalContext;
  }
  const replacement = specific.updatedToolOutput ?? specific.updatedMCPToolOutput;
  if (replacement !== undefined) verdict.replaceOutput = replacement;
  if (answer.decision === "block")
    verdict.feedback = String(answer.reason ?? "").trim() || "the hook flagged this result";
  else if (answer.decision !== undefined)
    return { kind: "failed", reason: `answered the unknown decision ${JSON.stringify(answer.decision)}` };
  const empty = verdict.additionalContext === undefined && verdict.replaceOutput === undefined && !verdict.feedback;
  return empty ? { kind: "none" } : verdict;
}

/**
 * Reads what one hook command answered, with Claude Code's meanings — exit 0 and JSON on stdout
 * (`hookSpecificOutput`), exit 2 with the reason on stderr — except that Gatehouse fails closed:
 * a hook that could not run, timed out, exited with any other code, printed JSON it cannot read
 * or a decision it does not know is `failed` (the caller blocks the call, naming the hook).
 * Plain text on stdout with exit 0 is a log line, not a decision (formatters print what they did).
 * `continue: false` stops like a block.
 * Contract: pure; never throws.
 */
export function readHookOutput(event: CommandHookEvent, run: CommandRun): HookVerdict {
  if (run.failure) return { kind: "failed", reason: run.failure };
  if (run.timedOut) return { kind: "failed", reason: "timed out" };
  if (run.exitCode === 2) {
    const reason = tail(run.stderr) || "exited with 2 (blocking) without a reason on stderr";
    return { kind: "block", reason };
  }
  if (run.exitCode !== 0) {
    const said = tail(run.stderr);
    return { kind: "failed", reason: `exited with ${run.exitCode ?? "a signal"}${said ? `: ${said}` : ""}` };
  }
  const out = run.stdout.trim();
  if (out === "" || !out.startsWith("{")) return { kind: "none" };
  let answer: unknown;
  try {
    answer = JSON.parse(out);
  } catch (error) {
    return { kind: "failed", reason: `printed JSON that cannot be read (${(error as Error).message})` };
  }
  if (!isObject(answer)) return { kind: "failed", reason: "printed JSON that is not an object" };
  if (answer.continue === false) {
    return { kind: "block", reason: String(answer.stopReason ?? answer.reason ?? "the hook asked to stop").trim() };
  }
  const specific = answer.hookSpecificOutput ?? {};
  if (!isObject(specific)) return { kind: "failed", reason: "answered a hookSpecificOutput that is not an object" };
  if (specific.hookEventName !== undefined && specific.hookEventName !== event) {
    return { kind: "failed", reason: `answered for ${JSON.stringify(specific.hookEventName)} on a ${event} event` };
  }
  return event === "PreToolUse" ? preToolUse(answer, specific) : postToolUse(answer, specific);
}
