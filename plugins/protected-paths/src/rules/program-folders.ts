import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * Folders a login shell puts first on PATH when they exist (Debian's and Ubuntu's `~/.profile`),
 * relative to the home: a program planted there before they exist is found at the next login.
 */
const LOGIN_PATH_FOLDERS = [".local/bin", "bin"];

function within(base: string, p: string): boolean {
  const rel = path.relative(base, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folders a shell looks programs up in that the user can write: every absolute `PATH` entry
 * the user may write to, and the home's `.local/bin` and `bin` — a program written there (`git`,
 * `ls`, `sudo`) runs in place of the real one the next time the user, or a tool, runs that name.
 * Contract: skips entries below a `node_modules` folder (the package manager's, as in the sandbox),
 * relative entries, and folders that hold the home or one of `places` (a rule for such a folder
 * would deny every write below it); entries come back normalised, without duplicates.
 */
export function programFolders(options: {
  envPath: string | undefined;
  home: string;
  places: readonly string[];
}): string[] {
  const { home, places } = options;
  const entries = (options.envPath ?? "")
    .split(path.delimiter)
    .filter((entry) => path.isAbsolute(entry))
    .map((entry) => path.resolve(entry))
    .filter((dir) => writable(dir));
  const found = new Set<string>();
  for (const dir of [...entries, ...LOGIN_PATH_FOLDERS.map((rel) => path.join(home, rel))]) {
    if (dir.split(path.sep).includes("node_modules")) continue;
    if ([home, ...places].some((place) => within(dir, place))) continue;
    found.add(dir);
  }
  return [...found];
}
