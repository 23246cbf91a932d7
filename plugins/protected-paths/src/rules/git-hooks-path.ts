import { readFileSync } from "node:fs";
import path from "node:path";

/** One `key = value` of a git config file, with the section it is in (lower case) and its file's folder. */
interface ConfigEntry {
  section: string;
  key: string;
  value: string;
}

/** A value as git reads it: quoted parts kept (quotes removed), escapes resolved, comments cut. */
function configValue(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else if (c === "\\" && i + 1 < raw.length) {
      const next = raw[++i] as string;
      out += next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "\b" : next;
    } else out += c;
  }
  return out.trim();
}

/**
 * The entries of a git config file's text.
 * Contract: sections `[name]` and `[name "sub"]` (names in any case), `key = value` and bare keys
 * (`true`), on their own lines or after the section header; a backslash at the end of a line
 * continues the value on the next; values may be quoted in parts and carry `\"` `\\` `\n` `\t`.
 */
export function gitConfigEntries(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let section = "";
  for (const raw of text.replace(/\\\r?\n/g, "").split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = (header[1] as string).toLowerCase();
      line = line.slice(header[0].length).trim();
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry) continue;
    entries.push({ section, key: (entry[1] as string).toLowerCase(), value: configValue(entry[2] ?? "true") });
  }
  return entries;
}

/**
 * The `core.hooksPath` values of a git config file's text (later ones win in git, but every value
 * named is returned: each was a hooks folder at some point of the file).
 */
export function hooksPathsIn(text: string): string[] {
  return gitConfigEntries(text)
    .filter((e) => e.section === "core" && e.key === "hookspath" && e.value !== "" && e.value !== "true")
    .map((e) => e.value);
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Includes followed at most this deep (git's own limit is 10). */
const MAX_INCLUDE_DEPTH = 10;

function expandHome(value: string, home: string): string {
  return value === "~" || value.startsWith("~/") ? path.join(home, value.slice(1)) : value;
}

/** What a config file and the files it includes configure: hooks folders, and the included files. */
interface GitConfigReach {
  hooks: string[];
  includes: string[];
}

/**
 * Every `core.hooksPath` a config file sets, and every file it includes, following `[include]`
 * and every `[includeIf]` (as if its condition held: protecting one file too many is harmless).
 */
function reachOf(file: string, home: string, seen: Set<string>, depth: number): GitConfigReach {
  const reach: GitConfigReach = { hooks: [], includes: [] };
  if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) return reach;
  seen.add(file);
  const entries = gitConfigEntries(readText(file));
  reach.hooks.push(
    ...entries
      .filter((e) => e.section === "core" && e.key === "hookspath" && e.value !== "" && e.value !== "true")
      .map((e) => e.value),
  );
  for (const e of entries) {
    if ((e.section !== "include" && e.section !== "includeif") || e.key !== "path" || e.value === "") continue;
    const included = path.resolve(path.dirname(file), expandHome(e.value, home));
    reach.includes.push(included);
    const inner = reachOf(included, home, seen, depth + 1);
    reach.hooks.push(...inner.hooks);
    reach.includes.push(...inner.includes);
  }
  return reach;
}

/** The config files git reads for the repositories at `roots`, the user and the system. */
function configFiles(roots: readonly string[], home: string): { repo: string[]; user: string[] } {
  const xdg = process.env.XDG_CONFIG_HOME ? path.resolve(process.env.XDG_CONFIG_HOME) : path.join(home, ".config");
  return {
    repo: roots.flatMap((root) => [path.join(root, ".git", "config"), path.join(root, ".git", "config.worktree")]),
    user: [path.join(home, ".gitconfig"), path.join(xdg, "git", "config"), "/etc/gitconfig"],
  };
}

/**
 * The files git's configuration includes (`[include] path = ../.gitconfig`), for the repositories
 * at `roots`, the user and the system, as absolute paths: git reads them as its own configuration
 * (a `core.fsmonitor` there runs at the next `git status`), so a write to one is a write to the
 * repository's configuration.
 */
export function configuredGitIncludes(roots: readonly string[], home: string): string[] {
  const { repo, user } = configFiles(roots, home);
  const seen = new Set<string>();
  return [...new Set([...repo, ...user].flatMap((f) => reachOf(f, home, seen, 0).includes))];
}

/**
 * The hooks folders git is configured to run from, for the repositories at the workspace roots:
 * `core.hooksPath` in each root's `.git/config` (and `config.worktree`), the user's `~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config` (default `~/.config/git/config`) and the system's `/etc/gitconfig`,
 * with the files they include, as absolute paths (relative values resolve against the root, `~/`
 * against `home`). Husky's layout (`.husky/_`) also protects its parent, whose scripts the
 * generated hooks run.
 */
export function configuredHooksFolders(roots: readonly string[], home: string): string[] {
  const { user: userFiles } = configFiles(roots, home);
  const user = userFiles.flatMap((f) => reachOf(f, home, new Set(), 0).hooks);
  const folders = new Set<string>();
  for (const root of roots) {
    const repo = [path.join(root, ".git", "config"), path.join(root, ".git", "config.worktree")];
    for (const value of [...repo.flatMap((f) => reachOf(f, home, new Set(), 0).hooks), ...user]) {
      const folder = path.resolve(root, expandHome(value, home));
      folders.add(folder);
      if (path.basename(folder) === "_") folders.add(path.dirname(folder));
    }
  }
  return [...folders];
}
