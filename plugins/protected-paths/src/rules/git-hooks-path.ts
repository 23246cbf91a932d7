import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The `core.hooksPath` values of a git config file's text (later ones win in git, but every value
 * named is returned: each was a hooks folder at some point of the file).
 * Contract: understands `[core]` sections (any case), `hooksPath = value` with optional quotes and
 * trailing `#`/`;` comments; `include` and conditional includes are not followed.
 */
export function hooksPathsIn(text: string): string[] {
  const found: string[] = [];
  let inCore = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) {
      inCore = (section[1] as string).toLowerCase() === "core";
      const rest = line.slice(section[0].length).trim();
      if (!inCore || rest === "") continue;
      // `[core] hooksPath = x` on one line.
      const inline = hooksPathValue(rest);
      if (inline !== undefined) found.push(inline);
      continue;
    }
    if (!inCore) continue;
    const value = hooksPathValue(line);
    if (value !== undefined) found.push(value);
  }
  return found;
}

function hooksPathValue(line: string): string | undefined {
  const match = /^hookspath\s*=\s*(.*)$/i.exec(line);
  if (!match) return undefined;
  let value = (match[1] as string).trim();
  if (value.startsWith('"')) {
    const end = value.indexOf('"', 1);
    value = end > 0 ? value.slice(1, end) : value.slice(1);
  } else value = value.replace(/\s[#;].*$/, "").trim();
  return value === "" ? undefined : value;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * The hooks folders git is configured to run from, for the repositories at the workspace roots:
 * `core.hooksPath` in each root's `.git/config` and in the user's `~/.gitconfig` and
 * `~/.config/git/config`, as absolute paths (relative values resolve against the root, `~/` against
 * `home`). Husky's layout (`.husky/_`) also protects its parent, whose scripts the generated hooks run.
 */
export function configuredHooksFolders(roots: readonly string[], home: string): string[] {
  const user = [path.join(home, ".gitconfig"), path.join(home, ".config", "git", "config")].flatMap((f) =>
    hooksPathsIn(readText(f)),
  );
  const folders = new Set<string>();
  for (const root of roots) {
    for (const value of [...hooksPathsIn(readText(path.join(root, ".git", "config"))), ...user]) {
      const expanded = value === "~" || value.startsWith("~/") ? path.join(home, value.slice(1)) : value;
      const folder = path.resolve(root, expanded);
      folders.add(folder);
      if (path.basename(folder) === "_") folders.add(path.dirname(folder));
    }
  }
  return [...folders];
}
