/**
 * Where `gatehouse run` records sessions by default: one private folder per project under the
 * Gatehouse home (`sessions/<project id>/`), keyed by the project's real path like the audit log,
 * one file per session named by when it started and a short id (`2025-06-01T10-22-33-123Z_3f2a91c0.jsonl`).
 * Out of the workspace, so a model's `git clean` cannot remove it and protected-paths keeps tools
 * away from it (the Gatehouse home is denied for reads and writes).
 */
import { hash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, gatehouseHome } from "@gatehouse/host";
import { UsageError } from "../help/usage-error.ts";
import { readSessionSummary, type SessionSummary } from "./session-summary.ts";

/** Folder of the store under the Gatehouse home. */
const STORE = "sessions";
/** The file in a project's folder that names the project, for a person browsing the home. */
const PROJECT_FILE = "project.json";
/** `<stamp>_<id>.jsonl`: the id is 8 hex digits. */
const SESSION_FILE = /^(.+)_([0-9a-f]{8})\.jsonl$/;

/** A project's sessions folder. */
export interface ProjectStore {
  home: string;
  project: string;
  dir: string;
  /** The folder's name under `sessions/`. */
  segment: string;
}

/** The store of the project `cwd` (its real path); nothing is created. */
export function projectStore(env: NodeJS.ProcessEnv, cwd: string): ProjectStore {
  const home = gatehouseHome(env);
  const project = realpathSync(cwd);
  const segment = hash("sha256", project, "hex").slice(0, 32);
  return { home, project, dir: join(home, STORE, segment), segment };
}

/**
 * The store's folder, created private (0700, owned by the user, no symlinks) if missing.
 * Contract: throws GH_STATE_DIR (from the host) for an unusable Gatehouse home.
 */
export function ensureStore(store: ProjectStore): string {
  const dir = ensurePrivateDir(store.home, STORE, store.segment);
  const named = join(dir, PROJECT_FILE);
  if (!existsSync(named))
    writeFileSync(named, `${JSON.stringify({ project: store.project }, null, 2)}\n`, { mode: 0o600 });
  return dir;
}

/** A new session file in the store: started now, a fresh id. */
export function newSessionFile(dir: string, now = new Date()): { file: string; id: string } {
  const id = randomBytes(4).toString("hex");
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return { file: join(dir, `${stamp}_${id}.jsonl`), id };
}

/** The id of a store file; undefined for any other name. */
export function sessionIdOf(fileName: string): string | undefined {
  return SESSION_FILE.exec(fileName)?.[2];
}

/**
 * The project's sessions, the most recently active first.
 * Contract: reads only (a missing folder is an empty store, and nothing is created); only regular
 * files with a store name are listed — links and anything else are ignored; a file that cannot
 * be read is listed with its problem rather than hiding the rest.
 */
export function listSessions(store: ProjectStore): SessionSummary[] {
  if (!existsSync(store.dir)) return [];
  ensurePrivateDir(store.home, STORE, store.segment); // checks the chain: private, owned, no links
  const summaries: SessionSummary[] = [];
  for (const entry of readdirSync(store.dir, { withFileTypes: true })) {
    const id = sessionIdOf(entry.name);
    if (!entry.isFile() || id === undefined) continue;
    summaries.push(readSessionSummary(join(store.dir, entry.name), id));
  }
  return summaries.sort((a, b) => b.modifiedMs - a.modifiedMs || (a.file < b.file ? 1 : -1));
}

/** Short rows naming sessions, for messages that ask the user to pick one. */
export function sessionChoices(sessions: readonly SessionSummary[], max = 5): string {
  if (sessions.length === 0) return "this project has no sessions yet";
  const shown = sessions.slice(0, max).map((s) => `${s.id} (${s.firstPrompt || "no prompt"})`);
  const more = sessions.length > max ? `, … ${sessions.length - max} more (gatehouse sessions)` : "";
  return `sessions: ${shown.join(", ")}${more}`;
}

/**
 * The session whose id starts with `prefix` (case-insensitive).
 * Contract: no match or several matches are a UsageError that lists the candidates.
 */
export function findSession(sessions: readonly SessionSummary[], prefix: string): SessionSummary {
  const wanted = prefix.toLowerCase();
  const matches = sessions.filter((s) => s.id.startsWith(wanted));
  if (matches.length === 1) return matches[0] as SessionSummary;
  if (matches.length === 0) throw new UsageError(`no session "${prefix}" in this project; ${sessionChoices(sessions)}`);
  throw new UsageError(
    `"${prefix}" matches ${matches.length} sessions: ${matches.map((s) => s.id).join(", ")}; give more of the id`,
  );
}
