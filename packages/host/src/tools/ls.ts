import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { type AnyToolDefinition, builtinToolParameters, defineTool, type ToolResult } from "@gatehouse/sdk";
import { resolveToolPath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { byName } from "./walk-tree.ts";

/** Most entries one ls call lists. */
export const LS_MAX_ENTRIES = 500;

/** What an ls result tells the host. */
export interface LsDetails {
  path: string;
  /** Entries in the directory. */
  entries: number;
  truncated: boolean;
  /** Entries the path policy withheld (not listed). */
  withheld: number;
}

/** Case-insensitive, then by code unit: a total order that does not depend on the machine's locale. */
function compareNames(a: string, b: string): number {
  return byName(a.toLowerCase(), b.toLowerCase()) || byName(a, b);
}

async function isDirectory(absPath: string): Promise<boolean> {
  try {
    return (await stat(absPath)).isDirectory();
  } catch {
    return false;
  }
}

async function list(
  displayPath: string,
  absPath: string,
  canRead: ((absolutePath: string) => boolean) | undefined,
): Promise<ToolResult<LsDetails>> {
  const info = await stat(absPath);
  if (!info.isDirectory()) {
    const text = `${displayPath} is not a directory; use read to view a file.`;
    return failureResult(text, { path: absPath, entries: 0, truncated: false, withheld: 0 });
  }
  const all = await readdir(absPath, { withFileTypes: true });
  const entries = canRead ? all.filter((entry) => canRead(path.join(absPath, entry.name))) : all;
  const withheld = all.length - entries.length;
  entries.sort((a, b) => compareNames(a.name, b.name));
  const shown = entries.slice(0, LS_MAX_ENTRIES);
  const names = await Promise.all(
    shown.map(async (entry) => {
      // Symlinks to directories are listed as directories: that is how they behave when used.
      const dir =
        entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path.join(absPath, entry.name))));
      return dir ? `${entry.name}/` : entry.name;
    }),
  );
  const truncated = entries.length > shown.length;
  const details: LsDetails = { path: absPath, entries: entries.length, truncated, withheld };
  const note =
    withheld === 0 ? "" : `\n\n[${withheld} ${withheld === 1 ? "entry" : "entries"} withheld by the path policy]`;
  if (entries.length === 0) {
    const empty = withheld === 0 ? "is an empty directory" : "has no entries you may see";
    return textResult(`(${displayPath} ${empty})${note}`, details);
  }
  const marker = truncated
    ? `\n\n[truncated: showing ${shown.length} of ${entries.length} entries; use find with a pattern to narrow the listing]`
    : "";
  return textResult(names.join("\n") + marker + note, details);
}

/** The `ls` built-in: one directory's entries, sorted, directories suffixed "/", dotfiles included. */
export function createLsTool(): AnyToolDefinition {
  return defineTool({
    name: "ls",
    description: `List the entries of a directory (default: the working directory), sorted by name, one per line. Directories end with "/"; hidden (dot) files are included. At most ${LS_MAX_ENTRIES} entries are shown; entries the path policy withholds are left out (the result says how many). Paths are relative to the working directory unless absolute; ~ is the home directory. To search a tree recursively, use find.`,
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.ls;
    },
    effects: (args) => [{ kind: "read", path: args.path ?? "." }],
    execute: async (args, ctx) => {
      const displayPath = args.path ?? ".";
      let absPath: string | undefined;
      try {
        absPath = resolveToolPath(displayPath, ctx.cwd);
        return await list(displayPath, absPath, ctx.canRead);
      } catch (error) {
        const text = describeFailure({ action: "list", displayPath, absPath, error });
        return failureResult(text, { path: absPath ?? displayPath, entries: 0, truncated: false, withheld: 0 });
      }
    },
  });
}
