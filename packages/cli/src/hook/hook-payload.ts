import { isAbsolute } from "node:path";

/** The agents whose hooks Gatehouse answers. */
export type HookAgent = "claude-code" | "codex";

/** The tool events the hook commands handle. */
export type HookEventName = "PreToolUse" | "PostToolUse" | "PostToolUseFailure";

/** The fields of one hook invocation that Gatehouse uses (the rest of the payload is ignored). */
export interface HookPayload {
  agent: HookAgent;
  event: HookEventName;
  sessionId: string;
  /** The call's id, pairing its Pre and Post records; a fresh id when the agent sent none. */
  toolUseId: string;
  /** The agent's working directory (absolute). */
  cwd: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  /** PostToolUse: the tool's output (only its size is ever recorded). */
  toolResponse?: unknown;
  /** PostToolUseFailure: why the call failed (only its size is ever recorded). */
  error?: unknown;
}

/** The largest payload read (a Write's content travels in it); larger is refused, not truncated. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

const EVENTS: Record<HookAgent, readonly HookEventName[]> = {
  "claude-code": ["PreToolUse", "PostToolUse", "PostToolUseFailure"],
  codex: ["PreToolUse", "PostToolUse"],
};

function bad(message: string): never {
  throw new Error(`hook input: ${message}`);
}

function text(value: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = value[key];
  if (v === undefined || v === null) {
    if (required) bad(`"${key}" is missing`);
    return undefined;
  }
  if (typeof v !== "string" || (required && v === "")) bad(`"${key}" must be a non-empty string`);
  return v;
}

/**
 * Parses one hook invocation's stdin.
 * Contract: throws an error naming the field for anything that is not the agent's documented
 * shape (the caller turns it into a block, never an allow): not one JSON object, an event the
 * agent does not send, a missing tool name, a tool input that is not an object, a relative cwd.
 */
export function parseHookPayload(input: string, agent: HookAgent): HookPayload {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    bad(`not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) bad("not a JSON object");
  const v = value as Record<string, unknown>;
  const event = text(v, "hook_event_name", true) as HookEventName;
  if (!EVENTS[agent].includes(event)) {
    bad(`hook_event_name ${JSON.stringify(event)} is not one of ${EVENTS[agent].join(", ")} (${agent})`);
  }
  const toolName = text(v, "tool_name", true) as string;
  const toolInput = v.tool_input ?? {};
  if (toolInput === null || typeof toolInput !== "object" || Array.isArray(toolInput)) {
    bad(`tool_input of ${toolName} must be a JSON object`);
  }
  const cwd = text(v, "cwd", true) as string;
  if (!isAbsolute(cwd) && !/^[A-Za-z]:[\\/]/.test(cwd)) bad(`cwd ${JSON.stringify(cwd)} is not an absolute path`);
  const payload: HookPayload = {
    agent,
    event,
    sessionId: text(v, "session_id", false) ?? "",
    toolUseId: text(v, "tool_use_id", false) || `unpaired-${crypto.randomUUID()}`,
    cwd,
    toolName,
    toolInput: toolInput as Record<string, unknown>,
  };
  if (v.tool_response !== undefined) payload.toolResponse = v.tool_response;
  if (v.error !== undefined) payload.error = v.error;
  return payload;
}
