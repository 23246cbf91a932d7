import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkSession, renderSessionTree, Session } from "@gatehouse/host";
import { parseCommand } from "./help/parse-command.ts";
import { pickSubcommand } from "./help/subcommand.ts";
import { UsageError } from "./help/usage-error.ts";
import type { CliIo } from "./io.ts";
import { printError } from "./messages.ts";
import { plural } from "./plural.ts";
import { projectDir } from "./run-command-support.ts";
import { findSession, listSessions, projectStore } from "./sessions/session-store.ts";
import { sessionCheckSpec, sessionShowSpec, sessionSpec } from "./specs/index.ts";

/**
 * The file a SESSION argument names: an existing path as given, else an id (prefix) of the
 * project's store; without an argument, the project's last session.
 */
function sessionFile(io: CliIo, cwd: string | undefined, target: string | undefined): string {
  if (target !== undefined && existsSync(resolve(io.cwd, target))) return resolve(io.cwd, target);
  const sessions = listSessions(projectStore(io.env, projectDir(io, cwd)));
  if (target !== undefined) return findSession(sessions, target).file;
  const last = sessions[0];
  if (!last) throw new UsageError("this project has no sessions yet; name a session FILE, or run gatehouse run first");
  return last.file;
}

/**
 * `gatehouse session show [SESSION]` prints the tree; `gatehouse session check [SESSION]` reports
 * torn and corrupt lines, broken parents, unknown entry types and tool calls without a result.
 * Contract: neither changes the file; `check` exits 1 when it finds an error, 0 otherwise.
 */
export async function sessionCommand(args: string[], io: CliIo): Promise<number> {
  const { name, args: rest } = pickSubcommand(sessionSpec, args);
  if (name === "show") {
    const { values, positionals } = parseCommand(sessionShowSpec, rest);
    const file = sessionFile(io, values.cwd, positionals[0]);
    const session = Session.open(file, { readOnly: true });
    for (const warning of session.warnings) printError(io, warning);
    io.stdout.write(renderSessionTree(session));
    return 0;
  }
  const { values, positionals } = parseCommand(sessionCheckSpec, rest);
  const file = sessionFile(io, values.cwd, positionals[0]);
  const report = checkSession(file);
  if (values.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const errors = report.problems.filter((p) => p.severity === "error").length;
    const warnings = report.problems.length - errors;
    io.stdout.write(
      `${file}: ${plural(report.entries, "entry", "entries")}, ${plural(errors, "error")}, ${plural(warnings, "warning")}\n`,
    );
    for (const p of report.problems)
      io.stdout.write(`  ${p.severity}${p.line ? ` line ${p.line}` : ""}: ${p.message}\n`);
  }
  return report.ok ? 0 : 1;
}
