/**
 * Which session `gatehouse run` records into, from its flags: a new one in the project's store
 * (the default), the store's last one (--continue), one by id (--resume), a file (--session), or
 * none (--no-session). Everything is checked before anything is written, so a run refused here —
 * or later, before its host exists — changes no session file.
 */
import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { Session } from "@gatehouse/host";
import { usageError } from "../help/parse-command.ts";
import type { CliIo } from "../io.ts";
import { printError } from "../messages.ts";
import { runSpec } from "../specs/index.ts";
import { pickSession } from "./pick-session.ts";
import { ensureStore, findSession, listSessions, newSessionFile, projectStore } from "./session-store.ts";

/** The session flags of `gatehouse run`. */
export interface SessionFlags {
  session?: string | undefined;
  continue: boolean;
  resume?: string | undefined;
  branch?: string | undefined;
  "no-session": boolean;
}

/** Where a run records, decided but not yet opened. */
export type SessionPlan =
  | { kind: "none" }
  | { kind: "new"; file: string; id?: string; inStore: boolean }
  | { kind: "resume"; file: string; id?: string; branch?: string };

function conflicts(flags: SessionFlags): string | undefined {
  const named = [
    flags.session !== undefined && "--session",
    flags.continue && "--continue",
    flags.resume !== undefined && "--resume",
  ].filter(Boolean);
  if (flags["no-session"] && (named.length > 0 || flags.branch !== undefined)) {
    return "--no-session records nothing, so it cannot go with --session, --continue, --resume or --branch";
  }
  if (flags.resume !== undefined && (flags.session !== undefined || flags.continue)) {
    return "--resume picks a session of this project by id; --continue takes the last one and --session names a file: use one of them";
  }
  return undefined;
}

/** Checks that `entry` exists in `file` and can be continued from, without writing anything. */
function checkBranch(file: string, entry: string): void {
  Session.open(file, { readOnly: true }).assertBranchable(entry);
}

/**
 * Decides the session of a run from its flags.
 * Contract: reads only (the picker may ask on the terminal); every refusal is a UsageError or a
 * GH_SESSION error before any file is touched: conflicting flags, a --session FILE that exists
 * without --continue/--branch (or is missing with them), an unknown or ambiguous id, and a
 * --branch entry that does not exist or would leave tool calls unanswered. --continue with no
 * earlier session starts a new one and says so.
 */
export async function planSession(io: CliIo, cwd: string, flags: SessionFlags): Promise<SessionPlan> {
  const clash = conflicts(flags);
  if (clash) throw usageError(runSpec, clash);
  if (flags["no-session"]) return { kind: "none" };
  const branch = flags.branch;
  if (flags.session !== undefined) {
    const file = resolve(io.cwd, flags.session);
    const resuming = flags.continue || branch !== undefined;
    if (existsSync(file) && !resuming) {
      throw usageError(
        runSpec,
        `session ${file} already exists: pass --continue to resume it, or --branch ENTRY_ID to branch from an entry`,
      );
    }
    if (!existsSync(file) && resuming) throw usageError(runSpec, `no session at ${file} to resume`);
    if (!resuming) return { kind: "new", file, inStore: false };
    if (branch !== undefined) checkBranch(file, branch);
    return { kind: "resume", file, ...(branch !== undefined ? { branch } : {}) };
  }
  const store = projectStore(io.env, cwd);
  const wantsOld = flags.continue || flags.resume !== undefined || branch !== undefined;
  if (!wantsOld) return { kind: "new", ...newSessionFile(store.dir), inStore: true };
  const sessions = listSessions(store);
  let chosen = sessions[0];
  if (flags.resume !== undefined) {
    chosen = flags.resume === "" ? await pickSession(io, sessions) : findSession(sessions, flags.resume);
  } else if (chosen === undefined) {
    if (branch !== undefined) throw usageError(runSpec, `--branch ${branch}: this project has no session to branch in`);
    printError(io, `no earlier session in ${store.project}: starting a new one`);
    return { kind: "new", ...newSessionFile(store.dir), inStore: true };
  }
  if (branch !== undefined) checkBranch(chosen.file, branch);
  return { kind: "resume", file: chosen.file, id: chosen.id, ...(branch !== undefined ? { branch } : {}) };
}

/** An opened session and how to undo its creation if the run never starts. */
export interface OpenedSession {
  session: Session;
  /** Removes a file this run created, when the run stops before recording anything. */
  discard(): void;
}

/**
 * Opens what `plan` decided: creates a new file (the store's folder private), or opens one to
 * resume; warnings (a torn last line) go to stderr.
 * Contract: only a new session is written here (its header); `discard` closes the session and
 * removes a file it created, and leaves a resumed file alone.
 */
export function openSession(io: CliIo, cwd: string, plan: Exclude<SessionPlan, { kind: "none" }>): OpenedSession {
  if (plan.kind === "resume") {
    const session = Session.open(plan.file);
    for (const warning of session.warnings) printError(io, warning);
    return { session, discard: () => session.close() };
  }
  if (plan.inStore) ensureStore(projectStore(io.env, cwd));
  const session = Session.create(plan.file, { cwd });
  return {
    session,
    discard: () => {
      session.close();
      rmSync(plan.file, { force: true });
    },
  };
}
