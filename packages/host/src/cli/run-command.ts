import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pino } from "pino";
import { GatehouseError } from "../common/errors.ts";
import { createHost } from "../host/create-host.ts";
import { createScriptedModel, loadScript } from "../model/index.ts";
import { Session } from "../session/index.ts";
import { ExitCode } from "./exit-codes.ts";
import { extensionNotices } from "./extension-notices.ts";
import type { CliIo } from "./io.ts";
import { jsonLines } from "./json-lines.ts";
import { parseFlags } from "./parse-flags.ts";
import { createLiveView } from "./view/index.ts";

/** The usage line of `gatehouse run`. */
export const RUN_USAGE = "gatehouse run [prompt] --script FILE [--cwd DIR] [--json] [--sequential] [--trust] [--watch]";

/** Logs to stderr at GATEHOUSE_LOG_LEVEL, silent by default (the CLI reports problems itself). */
export function silentLogger(io: CliIo, fallback = "silent") {
  return pino({ level: io.env.GATEHOUSE_LOG_LEVEL ?? fallback }, pino.destination({ fd: 2, sync: true }));
}

/** Resolves --cwd against the user's directory and checks that it is a directory. */
export function projectDir(io: CliIo, flag: string | undefined): string {
  const dir = resolve(io.cwd, flag ?? ".");
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new GatehouseError("GH_USAGE", `--cwd ${dir}: no such directory`);
  }
  if (!isDir) throw new GatehouseError("GH_USAGE", `--cwd ${dir}: not a directory`);
  return dir;
}

/**
 * Opens the --session file: a new file is created; an existing one needs --continue (resume from
 * the last leaf) or --branch (resume from an earlier entry), so a run never mixes into an old
 * transcript by accident.
 */
function openSessionFor(
  io: CliIo,
  cwd: string,
  flags: { session?: string | undefined; continue?: boolean | undefined; branch?: string | undefined },
): Session | undefined {
  if (!flags.session) {
    if (flags.continue || flags.branch)
      throw new GatehouseError("GH_USAGE", `--continue and --branch need --session FILE.\nusage: ${RUN_USAGE}`);
    return undefined;
  }
  const file = resolve(io.cwd, flags.session);
  const resuming = flags.continue || flags.branch !== undefined;
  if (existsSync(file) && !resuming) {
    throw new GatehouseError(
      "GH_USAGE",
      `session ${file} already exists: pass --continue to resume it, or --branch ENTRY_ID to branch from an entry`,
    );
  }
  if (!existsSync(file) && resuming) throw new GatehouseError("GH_USAGE", `no session at ${file} to resume`);
  const session = resuming ? Session.open(file) : Session.create(file, { cwd });
  for (const warning of session.warnings) io.stderr.write(`gatehouse: ${warning}\n`);
  return session;
}

/**
 * `gatehouse run`: the agent loop on the scripted model, with a live view or JSON lines.
 * Contract: returns an exit code of ExitCode; Ctrl-C aborts the run (a second one exits at once).
 */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      script: { type: "string" },
      cwd: { type: "string" },
      json: { type: "boolean", default: false },
      sequential: { type: "boolean", default: false },
      trust: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      session: { type: "string" },
      continue: { type: "boolean", default: false },
      branch: { type: "string" },
    },
    RUN_USAGE,
  );
  if (!values.script) throw new GatehouseError("GH_USAGE", `--script FILE is required.\nusage: ${RUN_USAGE}`);
  const cwd = projectDir(io, values.cwd);
  const script = await loadScript(resolve(io.cwd, values.script));
  const prompt = positionals.join(" ") || script.prompt || "Run the script.";

  const session = openSessionFor(io, cwd, values);
  const view = values.json ? jsonLines(io.stdout) : createLiveView({ out: io.stdout });
  const host = await createHost({
    cwd,
    model: createScriptedModel(script),
    ...(values.sequential ? { toolExecution: "sequential" as const } : {}),
    onEvent: (event) => view.onEvent(event),
    logger: silentLogger(io, values.json ? "warn" : "silent"),
    discover: true,
    trust: values.trust,
    watch: values.watch,
    env: io.env,
    ...(session ? { session } : {}),
  });
  io.stderr.write(extensionNotices(host.extensions()));
  if (values.branch) host.branch(values.branch);

  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) host.abort();
    else process.exit(ExitCode.interrupted);
  };
  process.on("SIGINT", onSigint);
  try {
    const result = await host.run(prompt);
    if (result.stoppedBy) io.stderr.write(`gatehouse: ${result.errorMessage}\n`);
    const code = result.stoppedBy
      ? ExitCode.runFailed
      : result.aborted
        ? ExitCode.interrupted
        : result.stopReason === "error"
          ? ExitCode.runFailed
          : ExitCode.ok;
    view.close({ exitCode: code });
    return code;
  } finally {
    process.off("SIGINT", onSigint);
    await host.close();
  }
}
