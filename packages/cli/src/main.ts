import { cliVersion } from "./cli-version.ts";
import { colorEnabled, terminalColumns } from "./color-support.ts";
import { ExitCode } from "./exit-codes.ts";
import { closest } from "./help/closest.ts";
import type { CommandSpec } from "./help/command-spec.ts";
import { renderMainHelp } from "./help/main-help.ts";
import { type HelpStyle, renderHelp } from "./help/render-help.ts";
import { UsageError } from "./help/usage-error.ts";
import { type CliIo, processIo } from "./io.ts";
import { printError } from "./messages.ts";
import {
  auditSpec,
  extensionsSpec,
  hookSpec,
  initSpec,
  modelsSpec,
  policySpec,
  runSpec,
  sessionSpec,
  sessionsSpec,
  toolsSpec,
  trustSpec,
} from "./specs/index.ts";
import { watchUnfinished } from "./unfinished.ts";

/** A command: its arguments after the command name, and where to write. Returns the exit code. */
export type Command = (args: string[], io: CliIo) => Promise<number>;

/** One entry of the command table: what help and the parser read, and the module that runs it. */
export interface CommandEntry {
  spec: CommandSpec;
  /** Imported when the command runs, so `gatehouse --help` loads no host, plugin or provider code. */
  load: () => Promise<Command>;
  /** False for a command whose module does not import `@gatehouse/host` (see `MainOptions.preloadHost`). */
  host?: false;
}

/** What the installed bin adds to `main` (tests and bin/dev.mjs pass nothing). */
export interface MainOptions {
  /**
   * Loads `@gatehouse/host` (and with it the SDK and zod) before a command that uses it is imported.
   * bin/gatehouse.js loads it through `require()`: Node ≥ 20.19 then reads and links the whole ES
   * module graph synchronously, without the promise and worker-pool round trips `import()` makes
   * for each of its ~100 modules (about 15% of `gatehouse tools`' start-up CPU).
   */
  preloadHost?: () => void;
}

/** Every command, in the order the main help lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  init: { spec: initSpec, load: async () => (await import("./init-command.ts")).initCommand },
  run: { spec: runSpec, load: async () => (await import("./run-command.ts")).runCommand },
  sessions: { spec: sessionsSpec, load: async () => (await import("./sessions-command.ts")).sessionsCommand },
  session: { spec: sessionSpec, load: async () => (await import("./session-command.ts")).sessionCommand },
  tools: { spec: toolsSpec, load: async () => (await import("./tools-command.ts")).toolsCommand },
  extensions: { spec: extensionsSpec, load: async () => (await import("./extensions-command.ts")).extensionsCommand },
  trust: { spec: trustSpec, load: async () => (await import("./trust-command.ts")).trustCommand },
  policy: { spec: policySpec, load: async () => (await import("./policy-command.ts")).policyCommand },
  audit: { spec: auditSpec, load: async () => (await import("./audit-command.ts")).auditCommand },
  models: { spec: modelsSpec, load: async () => (await import("./models-command.ts")).modelsCommand },
  hook: { spec: hookSpec, load: async () => (await import("./hook/hook-command.ts")).hookCommand, host: false },
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

/** Help wider than this is hard to read, whatever the terminal. */
const MAX_HELP_WIDTH = 100;

/** A GatehouseError from any copy of the host (checked by shape: the host is loaded lazily). */
function isGatehouseError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error && error.name === "GatehouseError" && typeof (error as { code?: unknown }).code === "string"
  );
}

function helpStyle(stream: CliIo["stdout"], env: NodeJS.ProcessEnv): HelpStyle {
  const bold = colorEnabled({ env, isTTY: stream.isTTY });
  return {
    width: Math.min(MAX_HELP_WIDTH, (terminalColumns(stream) ?? 81) - 1),
    bold: bold ? (text) => `\u001b[1m${text}\u001b[22m` : (text) => text,
  };
}

/** The spec `args` ask help for: a command, or one of its subcommands (`audit tail --help`). */
function specFor(entry: CommandEntry, args: readonly string[]): CommandSpec {
  const sub = args[0];
  const subs = entry.spec.subcommands ?? entry.spec.variants;
  return sub !== undefined && subs && Object.hasOwn(subs, sub) ? (subs[sub] as CommandSpec) : entry.spec;
}

/** True when `--help` or `-h` comes before any `--`. */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}

function lookup(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

function unknownCommand(io: CliIo, name: string): number {
  const guess = closest(name, Object.keys(COMMANDS));
  const what = name.startsWith("-") ? `unknown option ${name}` : `unknown command "${name}"`;
  printError(
    io,
    `${what}${guess ? `; did you mean "gatehouse ${guess}"?` : ""} (gatehouse --help lists every command)`,
  );
  return ExitCode.usage;
}

/**
 * The CLI entry point.
 * Contract: never throws; prints errors to stderr as "gatehouse: <message>" and returns an exit code.
 * `--help`/`-h` after any command prints that command's help (exit 0) without loading it.
 */
export async function main(argv: string[], io: CliIo = processIo(), options: MainOptions = {}): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v" || command === "version") {
    io.stdout.write(`${cliVersion()}\n`);
    return ExitCode.ok;
  }
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    // `gatehouse help --help` answers like every other command: with help, not a usage error.
    const asked = command === "help" && rest[0] !== undefined && !asksForHelp(rest.slice(0, 1)) ? rest[0] : undefined;
    const topic = asked !== undefined ? lookup(asked) : undefined;
    if (asked !== undefined && !topic) return unknownCommand(io, asked);
    const out = command === undefined ? io.stderr : io.stdout;
    const style = helpStyle(out, io.env);
    out.write(
      topic
        ? renderHelp(specFor(topic, rest.slice(1)), style)
        : renderMainHelp({ commands: COMMANDS, version: cliVersion(), style }),
    );
    return command === undefined ? ExitCode.usage : ExitCode.ok;
  }
  const entry = lookup(command);
  if (!entry) return unknownCommand(io, command);
  if (asksForHelp(rest)) {
    io.stdout.write(renderHelp(specFor(entry, rest), helpStyle(io.stdout, io.env)));
    return ExitCode.ok;
  }
  const unwatch = watchUnfinished(io, command);
  try {
    if (entry.host !== false) options.preloadHost?.();
    const code = await (await entry.load())(rest, io);
    if (io.outputFailed?.()) return ExitCode.runFailed;
    return io.outputClosed?.() ? ExitCode.ok : code;
  } catch (error) {
    if (io.outputFailed?.()) return ExitCode.runFailed;
    if (io.outputClosed?.()) return ExitCode.ok;
    if (error instanceof UsageError) {
      printError(io, error.message);
      return ExitCode.usage;
    }
    if (isGatehouseError(error)) {
      printError(io, error.message);
      return INPUT_ERRORS.has(error.code) ? ExitCode.usage : ExitCode.runFailed;
    }
    printError(io, `unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return ExitCode.runFailed;
  } finally {
    unwatch();
  }
}
