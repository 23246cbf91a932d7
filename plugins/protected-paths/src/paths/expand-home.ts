import { realpathSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";

/**
 * Turns a path as a tool receives it into an absolute path WITHOUT normalising it, exactly like
 * the built-ins do: `~` and `~/x` mean the home directory, anything else not absolute is relative
 * to `cwd`. Keeping `..` and `//` lets the resolver follow them the way the kernel would.
 * Contract: the result is absolute; `~user` is not expanded (the built-ins do not either).
 */
export function joinRaw(input: string, options: { cwd: string; home: string; expandHome: boolean }): string {
  if (options.expandHome && input === "~") return options.home;
  if (options.expandHome && input.startsWith("~/")) return `${options.home}/${input.slice(2)}`;
  if (path.isAbsolute(input)) return input;
  return `${options.cwd}/${input}`;
}

/**
 * The home directory as rules and `~` expansion use it: absolute and normalised (`HOME=/h/.`,
 * `/h//`, `/a/../h` all mean `/h`), as the built-in tools join `~/x` with `path.join`.
 * Contract: a relative or empty `home` resolves against the process's working directory, like
 * Node's own path functions would.
 */
export function normalHome(home: string): string {
  return path.resolve(home || "/");
}

/**
 * Every spelling of the home directory a rule anchored at `~` must cover: the normalised one
 * (`normalHome`) and, when it exists and differs, its real path as the kernel resolves the raw
 * value (`/a/link/../h` is the `h` beside where `link` leads, not `/a/h`), so a command that
 * uses `$HOME` as it is reaches nothing a rule misses.
 * Contract: the normalised spelling first; never throws.
 */
export function homeSpellings(home: string): string[] {
  const normal = normalHome(home);
  let real: string | undefined;
  try {
    real = realpathSync.native(home || "/");
  } catch {
    real = undefined;
  }
  return real === undefined || real === normal ? [normal] : [normal, real];
}

/**
 * The home directory the user database names for the account running this process, which `HOME`
 * need not be (`sudo` keeping the caller's HOME, `HOME=$(mktemp -d)`, a container's `HOME=/`).
 * Contract: an absolute path, or `undefined` when the account has no entry or no absolute home.
 */
export function accountHome(): string | undefined {
  try {
    const { homedir } = userInfo();
    return path.isAbsolute(homedir) ? homedir : undefined;
  } catch {
    return undefined;
  }
}
