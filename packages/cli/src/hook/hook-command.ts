import { parseCommand } from "../help/parse-command.ts";
import { usageLine } from "../help/usage-line.ts";
import type { CliIo } from "../io.ts";
import { hookClaudeSpec, hookCodexSpec, hookSpec } from "../specs/index.ts";
import { type HookAnswer, refuse } from "./hook-answer.ts";
import { type HookAgent, type HookEventName, MAX_PAYLOAD_BYTES, parseHookPayload } from "./hook-payload.ts";

const USAGE = `usage: ${usageLine(hookSpec)}`;

/** How long one decision may take before the call is refused (the agents' own timeouts fail open). */
const DEADLINE_MS = 20_000;

const AGENTS: readonly HookAgent[] = ["claude-code", "codex"];

/** Reads stdin up to `limit` bytes; more is an error (a truncated payload must not be decided on). */
async function readStdin(stdin: NodeJS.ReadableStream, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
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

async function answerHook(
  agent: HookAgent,
  args: string[],
  io: CliIo,
  stdin: NodeJS.ReadableStream,
): Promise<HookAnswer> {
  let text = "";
  let event: HookEventName | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    // A usage error is a refusal too: a hook wired with a typo must still block.
    const flag = parseCommand(agent === "codex" ? hookCodexSpec : hookClaudeSpec, args).values.cwd;
    text = await readStdin(stdin, MAX_PAYLOAD_BYTES);
    event = eventOf(text);
    const payload = parseHookPayload(text, agent);
    const { decideHook } = await import("./hook-decide.ts");
    const deadline = new Promise<HookAnswer>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            refuse(
              agent,
              event,
              `Gatehouse could not decide on ${payload.toolName} within ${DEADLINE_MS / 1000} s, so it refuses the call.`,
            ),
          ),
        DEADLINE_MS,
      );
      timer.unref();
    });
    return await Promise.race([decideHook(payload, io, flag), deadline]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return refuse(agent, event, `Gatehouse could not check this call, so it refuses it: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `gatehouse hook claude-code|codex`: answers one hook call of the agent, payload on stdin; and
 * `gatehouse hook install …`: adds Gatehouse's hooks to the agent's settings.
 * Contract (answering): never throws and never exits 1 — every failure is a refusal in the
 * agent's protocol (Claude Code: a deny on stdout, or exit 2 with stderr; Codex: exit 2 with a
 * non-empty stderr); no opinion is no output and exit 0.
 */
export async function hookCommand(
  args: string[],
  io: CliIo,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "install") {
    const { hookInstallCommand } = await import("./hook-install-command.ts");
    return hookInstallCommand(rest, io);
  }
  if (!AGENTS.includes(sub as HookAgent)) {
    io.stderr.write(`gatehouse: unknown hook command "${sub ?? ""}"\n${USAGE}\n`);
    // A hook wired with a typo must still block: 2 is the code both agents honour.
    return 2;
  }
  const answer = await answerHook(sub as HookAgent, rest, io, stdin);
  if (answer.stdout) io.stdout.write(answer.stdout);
  if (answer.stderr) io.stderr.write(answer.stderr);
  return answer.exitCode;
}
