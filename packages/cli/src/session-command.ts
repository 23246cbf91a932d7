import { lstatSync } from "node:fs";
import { resolve, sep } from "node:path";
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

const NO_THROW = { throwIfNoEntry: false } as const;
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Control characters of a corrupt line, written as `\u001b` so they reach the terminal inert. */
function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** True for an argument that can only be a path: it has a slash or a file extension, or starts with a dot. */
function looksLikePath(target: string): boolean {
  return target.includes("/") || target.includes(sep) || target.startsWith(".") || /\.[A-Za-z0-9]+$/.test(target);
}

/**
 * The file a SESSION argument names: an existing path as given, else an id (prefix) of the
 * project's store; without an argument, the project's last session. An argument that looks like a
 * path is always taken as one, so a missing file or a link loop is reported as such (by the
 * session reader) rather than as an unknown id.
 */
function sessionFile(io: CliIo, cwd: string | undefined, target: string | undefined): string {
  if (target !== undefined && (looksLikePath(target) || lstatSync(resolve(io.cwd, target), NO_THROW) !== undefined))
    return resolve(io.cwd, target);
  const sessions = listSessions(projectStore(io.env, projectDir(io, cwd)));
  if (target !== undefined) return findSession(sessions, target).file;
  const last = sessions[0];
  if (!last) throw new UsageError("this project has no sessions yet; name a session FILE, or run gatehouse run first");
  return last.file;
}

/**
 * `gatehouse session show [SESSION]` prints the tree; `gatehouse session check [SESSION]` reports
 * torn and corrupt lines, broken parents, unknown entry types and tool calls without a result.
 * Contract: neither changes the file; `check` exits 1 when it finds an error, 0 otherwise; a path
 * that is no session file at all (missing, a directory, a FIFO, a link loop) is exit 2 for both.
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
      io.stdout.write(`  ${p.severity}${p.line ? ` line ${p.line}` : ""}: ${escapeControls(p.message)}\n`);
  }
  return report.ok ? 0 : 1;
}
