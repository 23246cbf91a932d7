import { closest } from "../help/closest.ts";
import { parseCommand } from "../help/parse-command.ts";
import { usageLine } from "../help/usage-line.ts";
import type { CliIo } from "../io.ts";
import { hookClaudeSpec, hookCodexSpec, hookSpec } from "../specs/index.ts";
import { answerHook, HOOK_AGENTS } from "./answer-hook.ts";
import type { HookAgent } from "./hook-payload.ts";

const USAGE = `usage: ${usageLine(hookSpec)}`;

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
  if (!HOOK_AGENTS.includes(sub as HookAgent)) {
    const names = [...HOOK_AGENTS, "install"];
    const guess = sub === undefined ? undefined : closest(sub, names);
    const what =
      sub === undefined || sub.startsWith("-")
        ? `gatehouse hook needs a command: ${names.join(", ")} (gatehouse hook --help)`
        : `unknown hook command "${sub}"${guess ? `; did you mean "hook ${guess}"?` : ""} (commands: ${names.join(", ")})`;
    io.stderr.write(`gatehouse: ${what}\n${USAGE}\n`);
    // A hook wired with a typo must still block: 2 is the code both agents honour.
    return 2;
  }
  const agent = sub as HookAgent;
  const spec = agent === "codex" ? hookCodexSpec : hookClaudeSpec;
  const answer = await answerHook({
    agent,
    io,
    stdin,
    parseFlags: () => parseCommand(spec, rest).values.cwd,
    evaluate: async (options) => (await import("./hook-evaluate.ts")).evaluateHook(options),
  });
  if (answer.stdout) io.stdout.write(answer.stdout);
  if (answer.stderr) io.stderr.write(answer.stderr);
  return answer.exitCode;
}
