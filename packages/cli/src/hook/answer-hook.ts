import type { CliIo } from "../io.ts";
import { type HookAnswer, refuse } from "./hook-answer.ts";
import { decideHook, type EvaluateHook } from "./hook-decide.ts";
import { type HookAgent, type HookEventName, MAX_PAYLOAD_BYTES, parseHookPayload } from "./hook-payload.ts";

/** How long one call may take, reading its payload included, before it is refused (the agents' own timeouts fail open). */
export const DEADLINE_MS = 20_000;

/**
 * The deadline of one call: `GATEHOUSE_HOOK_DEADLINE_MS` may shorten it (tests use it; a
 * shorter deadline only refuses more), never lengthen it past the agents' own timeouts. Any
 * other value is ignored.
 */
export function hookDeadline(env: NodeJS.ProcessEnv): number {
  const value = Number(env.GATEHOUSE_HOOK_DEADLINE_MS);
  return Number.isInteger(value) && value > 0 && value < DEADLINE_MS ? value : DEADLINE_MS;
}

/** The agents whose hook calls `gatehouse hook AGENT` answers. */
export const HOOK_AGENTS: readonly HookAgent[] = ["claude-code", "codex"];

/**
 * Reads a stream up to `limit` bytes in all (`before` included: what was read another way);
 * more is an error (a truncated payload must not be decided on).
 */
export async function readStdin(stdin: NodeJS.ReadableStream, limit: number, before: Buffer[] = []): Promise<string> {
  const chunks: Buffer[] = [...before];
  let size = before.reduce((sum, b) => sum + b.length, 0);
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) throw new Error(`the payload is larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The event named in a payload we could not parse, so a refusal can still use the right channel. */
function eventOf(text: string): HookEventName | undefined {
  const match = /"hook_event_name"\s*:\s*"(PreToolUse|PostToolUse|PostToolUseFailure)"/.exec(text);
  return match?.[1] as HookEventName | undefined;
}

/**
 * Answers one hook call of `agent`, the payload read from `stdin`, for the project that `--cwd`
 * (`cwdFlag`) or the payload names.
 * Contract: never throws; every failure is a refusal in the agent's protocol; `parseFlags` (the
 * full CLI's parser) runs inside the same guard, so a hook wired with a typo still blocks. The
 * deadline runs from the start: a payload that never ends (a writer holding the pipe open) is
 * refused like a decision that never comes; a stream `stdin` still being read is then destroyed,
 * so it keeps the process alive no longer.
 */
export async function answerHook(options: {
  agent: HookAgent;
  io: CliIo;
  /** The payload's source: a stream, or a reader given the size limit. */
  stdin: NodeJS.ReadableStream | ((limit: number) => Promise<string>);
  parseFlags: () => string | undefined;
  /** The full evaluation, for a project without a valid plan. */
  evaluate: EvaluateHook;
}): Promise<HookAnswer> {
  const { agent, io, stdin } = options;
  const deadlineMs = hookDeadline(io.env);
  let event: HookEventName | undefined;
  let toolName: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<HookAnswer>((resolve) => {
    timer = setTimeout(() => {
      const what = toolName === undefined ? "read the call it was asked about" : `decide on ${toolName}`;
      resolve(
        refuse(agent, event, `Gatehouse could not ${what} within ${deadlineMs / 1000} s, so it refuses the call.`),
      );
    }, deadlineMs);
    // Not unref'd: were nothing else keeping the process alive (an answer that never settles),
    // it would end with exit 0, no opinion, instead of the refusal.
  });
  const answer = async (): Promise<HookAnswer> => {
    try {
      // A usage error is a refusal too: a hook wired with a typo must still block.
      const flag = options.parseFlags();
      const text =
        typeof stdin === "function" ? await stdin(MAX_PAYLOAD_BYTES) : await readStdin(stdin, MAX_PAYLOAD_BYTES);
      event = eventOf(text);
      const payload = parseHookPayload(text, agent);
      toolName = payload.toolName;
      return await decideHook(payload, io, flag, options.evaluate);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return refuse(agent, event, `Gatehouse could not check this call, so it refuses it: ${message}`);
    }
  };
  let done = false;
  try {
    const result = await Promise.race([answer().finally(() => (done = true)), deadline]);
    if (!done && typeof stdin !== "function") (stdin as Partial<NodeJS.ReadStream>).destroy?.();
    return result;
  } finally {
    clearTimeout(timer);
  }
}
