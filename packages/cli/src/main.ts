import { createRequire } from "node:module";
import { ExitCode } from "./exit-codes.ts";
import { type CliIo, processIo } from "./io.ts";
import { RUN_USAGE } from "./run-usage.ts";

const HELP = `gatehouse — a tool-call host for AI coding agents

usage:
  gatehouse --version
  gatehouse init [--cwd DIR] [--force]
  ${RUN_USAGE}
  gatehouse tools [--cwd DIR] [--json] [--trust]
  gatehouse extensions [--cwd DIR] [--json] [--trust]
  gatehouse trust [--cwd DIR] [--revoke]
  gatehouse policy check --tool NAME --args JSON [--cwd DIR] [--json] [--explain]
  gatehouse audit verify|tail|stats [FILE] [--cwd DIR] [--json]   (verify: --key FILE --seals DIR; tail: --lines N --follow)
  gatehouse session show FILE | gatehouse session check FILE [--json]
  gatehouse models [--cwd DIR] [--json]
  gatehouse hook claude-code|codex [--cwd DIR]   (an agent's hook: the call as JSON on stdin)
  gatehouse hook install claude-code|codex [--project|--user] [--uninstall] [--cwd DIR] [--command CMD]

exit codes: 0 finished · 1 model error, host failure or a refused policy check
            2 bad usage or input, a required guard that cannot run · 130 interrupted
            audit verify: 3 unsealed tail · 4 no key · 5 no log · 6 tampered · 7 truncated
                          8 session deleted · 9 log emptied or replaced · 10 reordered
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

// Each command is imported when it runs, so `gatehouse --help` loads no host, plugin or provider code.
const COMMANDS: Record<string, () => Promise<Command>> = {
  init: async () => (await import("./init-command.ts")).initCommand,
  run: async () => (await import("./run-command.ts")).runCommand,
  tools: async () => (await import("./tools-command.ts")).toolsCommand,
  extensions: async () => (await import("./extensions-command.ts")).extensionsCommand,
  trust: async () => (await import("./trust-command.ts")).trustCommand,
  policy: async () => (await import("./policy-command.ts")).policyCommand,
  audit: async () => (await import("./audit-command.ts")).auditCommand,
  session: async () => (await import("./session-command.ts")).sessionCommand,
  models: async () => (await import("./models-command.ts")).modelsCommand,
  hook: async () => (await import("./hook/hook-command.ts")).hookCommand,
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

/** This package's version, read from its manifest (the same relative path from src/ and dist/). */
function cliVersion(): string {
  return (createRequire(import.meta.url)("../package.json") as { version: string }).version;
}

/** A GatehouseError from any copy of the host (checked by shape: the host is loaded lazily). */
function isGatehouseError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error && error.name === "GatehouseError" && typeof (error as { code?: unknown }).code === "string"
  );
}

/**
 * The CLI entry point.
 * Contract: never throws; prints errors to stderr as "gatehouse: <message>" and returns an exit code.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v" || command === "version") {
    io.stdout.write(`${cliVersion()}\n`);
    return ExitCode.ok;
  }
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    (command === undefined ? io.stderr : io.stdout).write(HELP);
    return command === undefined ? ExitCode.usage : ExitCode.ok;
  }
  const load = COMMANDS[command];
  if (!load) {
    io.stderr.write(`gatehouse: unknown command "${command}"\n\n${HELP}`);
    return ExitCode.usage;
  }
  try {
    return await (await load())(rest, io);
  } catch (error) {
    if (isGatehouseError(error)) {
      io.stderr.write(`gatehouse: ${error.message}\n`);
      return INPUT_ERRORS.has(error.code) ? ExitCode.usage : ExitCode.runFailed;
    }
    io.stderr.write(
      `gatehouse: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return ExitCode.runFailed;
  }
}
