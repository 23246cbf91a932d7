import { type FileHandle, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { type AnyToolDefinition, builtinToolParameters, defineTool, type ToolResult } from "@gatehouse/sdk";
import { BoundedMatcher } from "./bounded-match.ts";
import { filterByGlob } from "./glob-filter.ts";
import { openChecked } from "./open-checked.ts";
import { resolveToolPath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { formatBytes, truncateHead, truncateLine } from "./truncate.ts";
import { MAX_WHOLE_FILE_BYTES } from "./verified-open.ts";
import { type WalkEntry, walkTree } from "./walk-tree.ts";

/** Most matching lines one grep call returns. */
export const GREP_MAX_MATCHES = 200;
/** Longest line text shown per match; minified files would otherwise flood the output. */
export const GREP_MAX_LINE_CHARS = 500;
/** Files with a NUL byte in this many leading bytes are binary and skipped (what git and grep do). */
const BINARY_SNIFF_BYTES = 8192;

/** What a grep result tells the host. */
export interface GrepDetails {
  path: string;
  /** Matching lines returned (at most GREP_MAX_MATCHES). */
  matches: number;
  filesSearched: number;
  binarySkipped: number;
  /** Files larger than grep reads (64 MB), skipped. */
  largeSkipped: number;
  truncated: boolean;
  /** Files and directories the path policy withheld (not searched, not shown). */
  withheld: number;
}

type Target = { absPath: string; relPath: string };

/** What a search needs besides the pattern. */
interface SearchScope {
  absPath: string;
  displayPath: string;
  glob: string | undefined;
  signal: AbortSignal;
  canRead: ((absolutePath: string) => boolean) | undefined;
  /** Counts entries the guards' read filter withheld. */
  tally: { withheld: number };
}

async function* onlyFiles(entries: AsyncIterable<WalkEntry>): AsyncGenerator<Target> {
  for await (const entry of entries) {
    if (entry.kind === "file") yield { absPath: entry.absPath, relPath: entry.relPath };
  }
}

async function* targets(scope: SearchScope & { within: string | undefined }) {
  const { absPath, displayPath, glob, signal, canRead, tally } = scope;
  const info = await stat(absPath);
  // A single file is searched as named: the model chose it, so the glob does not apply.
  if (!info.isDirectory()) {
    // Devices and FIFOs never end or block; only regular files are searched.
    if (!info.isFile()) throw new Error(`Cannot search ${displayPath}: it is not a regular file or a directory.`);
    yield { absPath, relPath: path.basename(absPath) } satisfies Target;
    return;
  }
  const onWithheld = () => {
    tally.withheld++;
  };
  const files = onlyFiles(walkTree(absPath, { signal, canRead, onWithheld }));
  const text = (entry: Target) => entry.relPath;
  const globOptions = { dot: true, orName: true };
  yield* glob === undefined ? files : filterByGlob(files, { glob, globOptions, text, tool: "grep", signal });
}

/**
 * The file's text bytes, read from the file actually opened after checking it; "binary" when its
 * first bytes hold a NUL (nothing more is read), "large" when it holds more than
 * `MAX_WHOLE_FILE_BYTES` (it is never loaded: a tree holding a 1 GB sparse file took a gigabyte of
 * memory per grep call); undefined when skipped otherwise.
 */
async function readTarget(
  target: Target,
  scope: SearchScope,
  within: string | undefined,
): Promise<Buffer | "binary" | "large" | undefined> {
  try {
    const opened = await openChecked(target.absPath, { within, canRead: scope.canRead });
    if ("refused" in opened) {
      if (opened.refused !== "not-file") scope.tally.withheld++;
      return undefined;
    }
    try {
      return await readBounded(opened.handle);
    } finally {
      await opened.handle.close();
    }
  } catch {
    return undefined; // vanished or unreadable while walking: a search is best effort
  }
}

/** Reads a text file from its start: its first bytes decide binary, and no more than the cap is read. */
async function readBounded(handle: FileHandle): Promise<Buffer | "binary" | "large"> {
  if ((await handle.stat()).size > MAX_WHOLE_FILE_BYTES) return "large";
  const chunks: Buffer[] = [];
  let total = 0;
  for (let size = BINARY_SNIFF_BYTES; ; size = 1024 * 1024) {
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, total);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (total === 0 && chunk.includes(0)) return "binary";
    chunks.push(chunk);
    total += bytesRead;
    if (total > MAX_WHOLE_FILE_BYTES) return "large";
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

function withheldNote(count: number): string {
  if (count === 0) return "";
  return `\n\n[${count} ${count === 1 ? "entry" : "entries"} withheld by the path policy]`;
}

/** Text handed to one bounded run of the pattern (each run starts a watchdog: batch the files). */
const MATCH_BATCH_BYTES = 1024 * 1024;

/** Files read but not matched yet, matched together in one bounded run. */
class PendingFiles {
  readonly #files: { relPath: string; lines: string[] }[] = [];
  #bytes = 0;

  add(relPath: string, lines: string[], bytes: number): void {
    this.#files.push({ relPath, lines });
    this.#bytes += bytes;
  }

  get full(): boolean {
    return this.#bytes >= MATCH_BATCH_BYTES;
  }

  /** Matches every pending file and appends "path:line: text" to `out`; false at a match past the cap. */
  flush(matcher: BoundedMatcher, out: string[]): boolean {
    const files = this.#files.splice(0);
    this.#bytes = 0;
    const hits = matcher.match(files.flatMap((f) => f.lines));
    let first = 0;
    let next = 0;
    for (const file of files) {
      for (; next < hits.length && (hits[next] as number) < first + file.lines.length; next++) {
        if (out.length === GREP_MAX_MATCHES) return false;
        const index = (hits[next] as number) - first;
        out.push(`${file.relPath}:${index + 1}: ${truncateLine(file.lines[index] as string, GREP_MAX_LINE_CHARS)}`);
      }
      first += file.lines.length;
    }
    return true;
  }
}

async function search(options: SearchScope & { regex: RegExp }): Promise<ToolResult<GrepDetails>> {
  const { regex, displayPath, absPath, signal, tally } = options;
  const details: GrepDetails = {
    path: absPath,
    matches: 0,
    filesSearched: 0,
    binarySkipped: 0,
    largeSkipped: 0,
    truncated: false,
    withheld: 0,
  };
  const out: string[] = [];
  // The pattern is the model's: matched with a time budget, so a catastrophic one cannot freeze the host.
  const matcher = new BoundedMatcher(regex, { signal });
  const pending = new PendingFiles();
  // A directory search reads only files inside it: a link swapped in later cannot lead elsewhere.
  const within = (await stat(absPath)).isDirectory() ? await realpath(absPath) : undefined;
  for await (const target of targets({ ...options, within })) {
    signal.throwIfAborted();
    const buffer = await readTarget(target, options, within);
    if (buffer === undefined) continue;
    if (buffer === "binary" || buffer === "large") {
      if (buffer === "binary") details.binarySkipped++;
      else details.largeSkipped++;
      continue;
    }
    details.filesSearched++;
    const lines = buffer.toString("utf8").split(/\r?\n/);
    if (lines[lines.length - 1] === "") lines.pop(); // a final newline ends the last line, it starts none
    pending.add(target.relPath, lines, buffer.length);
    if (!pending.full) continue;
    if (!pending.flush(matcher, out)) {
      details.truncated = true;
      break;
    }
  }
  if (!details.truncated && !pending.flush(matcher, out)) details.truncated = true;
  details.matches = out.length;
  details.withheld = tally.withheld;
  const note = withheldNote(tally.withheld);
  const large =
    details.largeSkipped === 0
      ? ""
      : `\n\n[${details.largeSkipped} ${details.largeSkipped === 1 ? "file" : "files"} larger than ${formatBytes(MAX_WHOLE_FILE_BYTES)} not searched; use bash (rg, grep) for them]`;
  if (out.length === 0) {
    const skipped = details.binarySkipped > 0 ? ` (${details.binarySkipped} binary files skipped)` : "";
    return textResult(`No matches for /${regex.source}/ in ${displayPath}${skipped}${large}${note}`, details);
  }
  // 200 lines of 500 chars can still exceed the byte cap every tool output keeps to.
  const view = truncateHead(out.join("\n"));
  details.truncated ||= view.truncated;
  const marker = details.truncated
    ? `\n\n[truncated: showing the first ${view.keptLines} matches; narrow the pattern, path or glob]`
    : "";
  return textResult(view.text + marker + large + note, details);
}

/** The `grep` built-in: lines matching a JavaScript regular expression in a file or a tree. */
export function createGrepTool(): AnyToolDefinition {
  return defineTool({
    name: "grep",
    description: `Search file contents for a JavaScript regular expression (case-sensitive; e.g. "[Ff]oo" for either case). path may be a file or a directory (default: the working directory); glob limits a directory search to files whose relative path or name matches. Output lines are "path:line: text" with paths relative to the searched directory. Binary files, files larger than ${formatBytes(MAX_WHOLE_FILE_BYTES)}, .git and node_modules are skipped, and so are symlinks that lead out of the searched directory and files the path policy withholds (the result says how many); lines longer than ${GREP_MAX_LINE_CHARS} characters are cut; at most ${GREP_MAX_MATCHES} matches. To find files by name, use find.`,
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.grep;
    },
    effects: (args) => [{ kind: "read", path: args.path ?? "." }],
    execute: async (args, ctx) => {
      const displayPath = args.path ?? ".";
      const empty: GrepDetails = {
        path: displayPath,
        matches: 0,
        filesSearched: 0,
        binarySkipped: 0,
        largeSkipped: 0,
        truncated: false,
        withheld: 0,
      };
      let regex: RegExp;
      try {
        regex = new RegExp(args.pattern);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return failureResult(
          `Invalid regular expression ${JSON.stringify(args.pattern)} for grep in ${displayPath}: ${reason}`,
          empty,
        );
      }
      let absPath: string | undefined;
      try {
        absPath = resolveToolPath(displayPath, ctx.cwd);
        const scope = { glob: args.glob, displayPath, absPath, signal: ctx.signal, canRead: ctx.canRead };
        return await search({ ...scope, regex, tally: { withheld: 0 } });
      } catch (error) {
        const text = ctx.signal.aborted
          ? `grep in ${displayPath} was aborted.`
          : describeFailure({ action: "search", displayPath, absPath, error });
        return failureResult(text, { ...empty, path: absPath ?? displayPath });
      }
    },
  });
}
