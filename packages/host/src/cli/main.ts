import { GatehouseError } from "../common/errors.ts";
import { auditCommand } from "./audit-command.ts";
import { ExitCode } from "./exit-codes.ts";
import { extensionsCommand } from "./extensions-command.ts";
import { type CliIo, processIo } from "./io.ts";
import { modelsCommand } from "./models-command.ts";
import { policyCommand } from "./policy-command.ts";
import { RUN_USAGE, runCommand } from "./run-command.ts";
import { sessionCommand } from "./session-command.ts";
import { toolsCommand } from "./tools-command.ts";
import { trustCommand } from "./trust-command.ts";

const HELP = `gatehouse — a tool-call host for AI coding agents

usage:
  ${RUN_USAGE}
  gatehouse tools [--cwd DIR] [--json] [--trust]
  gatehouse extensions [--cwd DIR] [--json] [--trust]
  gatehouse trust [--cwd DIR] [--revoke]
  gatehouse policy check --tool NAME --args JSON [--cwd DIR] [--json] [--explain]
  gatehouse audit verify|tail|stats [FILE] [--cwd DIR] [--json]   (verify: --key FILE --seals DIR; tail: --lines N --follow)
  gatehouse session show FILE | gatehouse session check FILE [--json]
  gatehouse models [--cwd DIR] [--json]

exit codes: 0 finished · 1 model error, host failure or a refused policy check
            2 bad usage or input, a required guard that cannot run · 130 interrupted
            audit verify: 3 unsealed tail · 4 no key · 5 no log · 6 tampered · 7 truncated
                          8 session deleted · 9 log emptied or replaced · 10 reordered
`;

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  run: runCommand,
  tools: toolsCommand,
  extensions: extensionsCommand,
  trust: trustCommand,
  policy: policyCommand,
  audit: auditCommand,
  session: sessionCommand,
  models: modelsCommand,
};

const INPUT_ERRORS = new Set([
  "GH_USAGE",
  "GH_SCRIPT_INVALID",
  "GH_JSON_SYNTAX",
  "GH_SETTINGS_INVALID",
  "GH_SESSION",
  "GH_GUARD_FAILED",
  "GH_STATE_DIR",
]);

/**
 * The CLI entry point.
 * Contract: never throws; prints errors to stderr as "gatehouse: <message>" and returns an exit code.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    (command === undefined ? io.stderr : io.stdout).write(HELP);
    return command === undefined ? ExitCode.usage : ExitCode.ok;
  }
  const handler = COMMANDS[command];
  if (!handler) {
    io.stderr.write(`gatehouse: unknown command "${command}"\n\n${HELP}`);
    return ExitCode.usage;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof GatehouseError) {
      io.stderr.write(`gatehouse: ${error.message}\n`);
      return INPUT_ERRORS.has(error.code) ? ExitCode.usage : ExitCode.runFailed;
    }
    io.stderr.write(
      `gatehouse: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return ExitCode.runFailed;
  }
}
