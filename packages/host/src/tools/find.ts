import { stat } from "node:fs/promises";
import { type AnyToolDefinition, builtinToolParameters, defineTool, type ToolResult } from "@gatehouse/sdk";
import { filterByGlob } from "./glob-filter.ts";
import { resolveToolPath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { byName, walkTree } from "./walk-tree.ts";

/** Most paths one find call returns. */
export const FIND_MAX_RESULTS = 1000;

/** What a find result tells the host. */
export interface FindDetails {
  path: string;
  /** Paths returned (at most FIND_MAX_RESULTS). */
  matches: number;
  /** True when more paths matched than were returned. */
  truncated: boolean;
  /** Entries the path policy withheld (neither listed nor entered). */
  withheld: number;
}

async function search(options: {
  pattern: string;
  displayPath: string;
  absPath: string;
  signal: AbortSignal;
  canRead: ((absolutePath: string) => boolean) | undefined;
}): Promise<ToolResult<FindDetails>> {
  const { pattern, displayPath, absPath, signal, canRead } = options;
  if (!(await stat(absPath)).isDirectory()) {
    const text = `${displayPath} is not a directory; find searches a directory tree (use read for a file).`;
    return failureResult(text, { path: absPath, matches: 0, truncated: false, withheld: 0 });
  }
  // matchBase: "*.ts" finds files at any depth, as models (and fd) expect; patterns with "/" match the whole path.
  const globOptions = { dot: true, matchBase: true };
  const text = (entry: { relPath: string }) => entry.relPath;
  const found: string[] = [];
  let truncated = false;
  let withheld = 0;
  const onWithheld = () => {
    withheld++;
  };
  const entries = walkTree(absPath, { signal, canRead, onWithheld });
  for await (const entry of filterByGlob(entries, { glob: pattern, globOptions, text, tool: "find", signal })) {
    if (found.length === FIND_MAX_RESULTS) {
      truncated = true;
      break;
    }
    found.push(entry.kind === "dir" ? `${entry.relPath}/` : entry.relPath);
  }
  const details: FindDetails = { path: absPath, matches: found.length, truncated, withheld };
  const note =
    withheld === 0 ? "" : `\n\n[${withheld} ${withheld === 1 ? "entry" : "entries"} withheld by the path policy]`;
  if (found.length === 0) return textResult(`No paths match ${pattern} under ${displayPath}${note}`, details);
  found.sort(byName);
  const marker = truncated
    ? `\n\n[truncated: showing the first ${FIND_MAX_RESULTS} matches; narrow the pattern or search a subdirectory]`
    : "";
  return textResult(found.join("\n") + marker + note, details);
}

/** The `find` built-in: paths under a directory that match a glob, relative to that directory. */
export function createFindTool(): AnyToolDefinition {
  return defineTool({
    name: "find",
    description: `Find files and directories by glob pattern under a directory (default: the working directory). Results are relative to the searched directory, one per line; directories end with "/". Hidden (dot) files are included; .git and node_modules directories are skipped, symlinked directories are not entered, and entries the path policy withholds are left out (the result says how many). A pattern without "/" (e.g. "*.ts") matches names at any depth; use "**" for explicit depth (e.g. "src/**/*.test.ts"). At most ${FIND_MAX_RESULTS} results. To search file contents, use grep.`,
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.find;
    },
    effects: (args) => [{ kind: "read", path: args.path ?? "." }],
    execute: async (args, ctx) => {
      const displayPath = args.path ?? ".";
      let absPath: string | undefined;
      try {
        absPath = resolveToolPath(displayPath, ctx.cwd);
        return await search({ pattern: args.pattern, displayPath, absPath, signal: ctx.signal, canRead: ctx.canRead });
      } catch (error) {
        const text = ctx.signal.aborted
          ? `find in ${displayPath} was aborted.`
          : describeFailure({ action: "search", displayPath, absPath, error });
        return failureResult(text, { path: absPath ?? displayPath, matches: 0, truncated: false, withheld: 0 });
      }
    },
  });
}
