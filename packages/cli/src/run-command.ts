import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createHost, GatehouseError, Session } from "@gatehouse/host";
import { chooseModel } from "./choose-model.ts";
import { ExitCode } from "./exit-codes.ts";
import { extensionNotices } from "./extension-notices.ts";
import { noGuardNotice } from "./guard-notice.ts";
import type { CliIo } from "./io.ts";
import { jsonLines } from "./json-lines.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { parseFlags } from "./parse-flags.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";
import { RUN_USAGE } from "./run-usage.ts";
import { createLiveView } from "./view/index.ts";

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
      model: { type: "string" },
      "base-url": { type: "string" },
      "max-turns": { type: "string" },
    },
    RUN_USAGE,
  );
  const cwd = projectDir(io, values.cwd);
  const maxTurns = values["max-turns"] === undefined ? undefined : Number(values["max-turns"]);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1)) {
    throw new GatehouseError("GH_USAGE", `--max-turns must be a positive whole number.\nusage: ${RUN_USAGE}`);
  }
  const { model, prompt } = await chooseModel(io, cwd, values, positionals, RUN_USAGE);

  const session = openSessionFor(io, cwd, values);
  const view = values.json ? jsonLines(io.stdout) : createLiveView({ out: io.stdout });
  const creating = createHost({
    cwd,
    model,
    ...(values.sequential ? { toolExecution: "sequential" as const } : {}),
    ...(maxTurns ? { maxTurns } : {}),
    onEvent: (event) => view.onEvent(event),
    logger: silentLogger(io, values.json ? "warn" : "silent"),
    discover: true,
    packageBases: PACKAGE_BASES,
    trust: values.trust,
    watch: values.watch,
    env: io.env,
    ...(session ? { session } : {}),
  });
  // A required guard that cannot run rejects here, before the first model request (exit 2).
  const host = await creating.catch((error: unknown) => {
    view.close();
    session?.close();
    throw error;
  });
  io.stderr.write(extensionNotices(host.extensions()));
  const unguarded = noGuardNotice(host.extensions(), cwd);
  if (unguarded) {
    io.stderr.write(unguarded);
    view.noteInSummary("no path guard");
  }
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
