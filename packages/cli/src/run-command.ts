import { basename } from "node:path";
import { createHost, ensureWritableHome, gatehouseHome, type Host } from "@gatehouse/host";
import { callsInFlight } from "./calls-in-flight.ts";
import { chooseModel } from "./choose-model.ts";
import { colorEnabled } from "./color-support.ts";
import { ExitCode } from "./exit-codes.ts";
import { extensionNotices } from "./extension-notices.ts";
import { noGuardNotice } from "./guard-notice.ts";
import { parseCommand, usageError } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { jsonLines } from "./json-lines.ts";
import { fitToTerminal } from "./messages.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";
import { type OpenedSession, openSession, planSession } from "./sessions/run-session.ts";
import { runSpec } from "./specs/index.ts";
import { onStopSignals } from "./stop-signals.ts";
import { notePending } from "./unfinished.ts";
import { createLiveView } from "./view/index.ts";

/**
 * `gatehouse run`: the agent loop on the scripted or a real model, with a live view or JSON lines,
 * recorded as a session (see sessions/run-session.ts).
 * Contract: returns an exit code of ExitCode. Everything that can be refused (flags, --cwd, the
 * script or model, the session and --branch target, a Gatehouse home that cannot be written) is checked before any file is written, and a
 * new session file is removed again when the host cannot start (exit 2, a required guard that
 * cannot run). Ctrl-C aborts the run and says what was left unfinished (exit 130), and so do
 * SIGTERM (143) and SIGHUP (129); a second signal exits at once. A reader that closes the output (`| head`) stops the run cleanly (exit 0).
 */
export async function runCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(runSpec, args);
  const cwd = projectDir(io, values.cwd);
  // With or without a session, the run writes its audit log, key and sandbox masks to the home: a
  // home that cannot take them is refused now (exit 2), not at the first tool call (exit 1).
  ensureWritableHome(gatehouseHome(io.env));
  const maxTurns = values["max-turns"] === undefined ? undefined : Number(values["max-turns"]);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1)) {
    throw usageError(runSpec, "--max-turns must be a positive whole number");
  }
  const { model, prompt } = await chooseModel(io, cwd, values, positionals);
  const plan = await planSession(io, cwd, values);

  const opened: OpenedSession | undefined = plan.kind === "none" ? undefined : openSession(io, cwd, plan);
  const view = values.json
    ? jsonLines(io.stdout)
    : createLiveView({ out: io.stdout, color: colorEnabled({ env: io.env, isTTY: io.stdout.isTTY }), env: io.env });
  const inFlight = callsInFlight();
  const unnote = notePending(inFlight.describe);
  let host: Host;
  try {
    host = await createHost({
      cwd,
      model,
      ...(values.sequential ? { toolExecution: "sequential" as const } : {}),
      ...(maxTurns ? { maxTurns } : {}),
      onEvent: (event) => {
        inFlight.track(event);
        view.onEvent(event);
      },
      logger: silentLogger(io, values.json ? "warn" : "silent"),
      discover: true,
      packageBases: PACKAGE_BASES,
      trust: values.trust,
      watch: values.watch,
      env: io.env,
      ...(opened ? { session: opened.session } : {}),
    });
  } catch (error) {
    // A required guard that cannot run rejects here, before the first model request (exit 2).
    view.close();
    opened?.discard();
    throw error;
  }
  io.stderr.write(fitToTerminal(extensionNotices(host.extensions()), io.stderr));
  const unguarded = noGuardNotice(host.extensions(), cwd);
  if (unguarded) {
    io.stderr.write(fitToTerminal(unguarded, io.stderr));
    view.noteInSummary("no path guard");
  }
  if (plan.kind !== "none") view.noteInSummary(`session ${plan.id ?? basename(plan.file)}`);

  const signals = onStopSignals({
    onFirst: () => {
      view.interrupt();
      host.abort();
    },
    onSecond: (code) => {
      view.close({ exitCode: code });
      process.exit(code);
    },
  });
  const offClosed = io.onOutputClosed?.(() => host.abort());
  try {
    if (plan.kind === "resume" && plan.branch !== undefined) host.branch(plan.branch);
    const result = await host.run(prompt);
    if (result.stoppedBy) io.stderr.write(fitToTerminal(`gatehouse: ${result.errorMessage}\n`, io.stderr));
    // The model's own answer ended in an error, or was aborted on its side (a provider that cut its
    // stream, not our Ctrl-C): the task did not finish, so the run fails, as the reference runtime's
    // print mode does (exit 1 for stopReason "error" or "aborted").
    const modelFailed = !result.stoppedBy && !result.aborted && isFailedStop(result.stopReason);
    if (values.json && modelFailed) {
      // The live view shows a model error; with --json stdout is for a program, so exit 1 says why here.
      const why = result.errorMessage ?? "no error message";
      const what = result.stopReason === "aborted" ? "the model's answer was aborted" : "the model ended in an error";
      io.stderr.write(fitToTerminal(`gatehouse: ${what}: ${why}\n`, io.stderr));
    }
    if (result.maxTurnsReached) {
      // A safety limit cut the run short: that must not read like a model that finished its task.
      const limit = `gatehouse: stopped at --max-turns ${maxTurns}: the model had not finished`;
      io.stderr.write(fitToTerminal(`${limit}\n`, io.stderr));
    }
    const code = result.stoppedBy
      ? ExitCode.runFailed
      : result.aborted
        ? (signals.received ?? ExitCode.interrupted)
        : modelFailed
          ? ExitCode.runFailed
          : ExitCode.ok;
    view.close({ exitCode: code });
    return code;
  } finally {
    unnote();
    offClosed?.();
    signals.dispose();
    await host.close();
  }
}

/** Stop reasons of a model answer that did not finish the task (see SPEC §2). */
function isFailedStop(stopReason: string | undefined): boolean {
  return stopReason === "error" || stopReason === "aborted";
}
