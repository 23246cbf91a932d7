import { hash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Where one project's audit lives: the log, its seals, and the key that MACs both. */
export interface AuditLocation {
  /** The log (absolute). */
  file: string;
  /** The folder of the log's seals, in the per-user Gatehouse directory. */
  sealDir: string;
  /** The key file. */
  keyFile: string;
  /** True when the key is the per-user default (created on first use), false for a configured one. */
  defaultKey: boolean;
  /** True when the log is the per-project default in the per-user Gatehouse directory. */
  defaultFile: boolean;
}

/** The path with its deepest existing ancestor resolved through symbolic links (the rest as written). */
export function realish(path: string): string {
  const absolute = resolve(path);
  let dir = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(dir), ...rest.reverse());
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return absolute;
      rest.push(basename(dir));
      dir = parent;
    }
  }
}

const idOf = (text: string) => hash("sha256", text, "hex").slice(0, 32);

/** The folder names under the Gatehouse home: `audit/projects/<id>` holds a project's default log. */
export function projectLogSegments(projectDir: string): string[] {
  return ["audit", "projects", idOf(realish(projectDir))];
}

/** The folder names under the Gatehouse home that hold the seals of the log `file`. */
export function sealSegments(file: string): string[] {
  return ["audit", "seals", idOf(realish(file))];
}

/** The file name of a per-project log inside its folder. */
export const LOG_NAME = "audit.jsonl";
/** The file that names the project a per-project log folder belongs to. */
export const PROJECT_NAME = "project.json";
/** The per-user key, under the Gatehouse home. */
export const KEY_SEGMENTS = ["keys", "audit.key"];

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Whether `path` lies in the workspace `cwd`, as written or once symbolic links are resolved
 * (either counts: a link in the workspace can be swapped by the agent between two runs).
 * Contract: never throws; touches nothing.
 */
export function insideWorkspace(path: string, cwd: string): boolean {
  return inside(resolve(cwd, path), resolve(cwd)) || inside(realish(resolve(cwd, path)), realish(cwd));
}

/**
 * The audit's paths for a project, from its settings: a configured `file` (relative to the
 * project) or the per-project default under `home`; a configured `key` or the per-user default.
 * Contract: pure apart from resolving symbolic links; creates nothing.
 */
export function auditLocation(options: {
  home: string;
  cwd: string;
  file?: string | undefined;
  key?: string | undefined;
}): AuditLocation {
  const home = resolve(options.home);
  const file = options.file
    ? resolve(options.cwd, options.file)
    : join(home, ...projectLogSegments(options.cwd), LOG_NAME);
  return {
    file,
    sealDir: join(home, ...sealSegments(file)),
    keyFile: options.key ? resolve(options.cwd, options.key) : join(home, ...KEY_SEGMENTS),
    defaultKey: !options.key,
    defaultFile: !options.file,
  };
}
