import { terminalColumns } from "./color-support.ts";
import { parseCommand, usageError } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { projectDir } from "./run-command-support.ts";
import { listSessions, projectStore } from "./sessions/session-store.ts";
import { sessionTable } from "./sessions/session-table.ts";
import { sessionsSpec } from "./specs/index.ts";

/** Sessions listed when --limit is not given. */
const DEFAULT_LIMIT = 20;

/**
 * `gatehouse sessions`: the project's recorded sessions, the most recently active first, with what
 * `run --resume` needs (the id) and what helps to recognise one (when, how long, the first prompt).
 * Contract: reads only; exit 0 with a hint when the project has none.
 */
export async function sessionsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(sessionsSpec, args);
  const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 0) throw usageError(sessionsSpec, "--limit must be a whole number (0: all)");
  const store = projectStore(io.env, projectDir(io, values.cwd));
  const all = listSessions(store);
  const shown = limit === 0 ? all : all.slice(0, limit);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ project: store.project, dir: store.dir, sessions: shown }, null, 2)}\n`);
    return 0;
  }
  if (all.length === 0) {
    io.stdout.write(`No sessions for ${store.project} yet: every gatehouse run records one.\n`);
    return 0;
  }
  const width = (terminalColumns(io.stdout) ?? 121) - 1;
  io.stdout.write(`${sessionTable(shown, { width }).join("\n")}\n`);
  const more = all.length > shown.length ? `${all.length - shown.length} older not shown (--limit 0 shows all); ` : "";
  io.stdout.write(`${more}continue one with: gatehouse run --resume ID "…" (or -c for the latest)\n`);
  return 0;
}
