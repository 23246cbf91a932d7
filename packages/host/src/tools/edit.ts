import {
  type AnyToolDefinition,
  type BuiltinToolInputs,
  builtinToolParameters,
  defineTool,
  type ToolContext,
  type ToolResult,
} from "@gatehouse/sdk";
import { applyEdits, type TextEdit } from "./apply-edits.ts";
import { refuseUncheckedFile } from "./effect-pins.ts";
import type { FileMutationQueue } from "./file-mutation-queue.ts";
import { type LineDiff, lineDiff, MAX_DIFF_BYTES } from "./line-diff.ts";
import { resolveFilePath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { formatBytes } from "./truncate.ts";
import {
  closeFile,
  MAX_WHOLE_FILE_BYTES,
  openVerified,
  readWhole,
  type VerifiedFile,
  writeWhole,
} from "./verified-open.ts";
import { checkedTarget } from "./verify-target.ts";

/** What an edit result tells the host. */
export interface EditDetails {
  path: string;
  /** Number of edits requested. */
  edits: number;
  /** Total replacements made (more than `edits` when replaceAll matched several times). */
  replacements: number;
  /** Replacements per edit, in request order. */
  counts: number[];
  /** 1-based line of the first change. */
  firstChangedLine?: number;
  /** What changed, for files of at most 1 MiB (for viewers; not sent to the model). */
  diff?: LineDiff;
}

type EditArgs = BuiltinToolInputs["edit"];

function editsOf(args: EditArgs): TextEdit[] {
  if (args.edits !== undefined) {
    return args.edits.map((edit) => ({ ...edit, replaceAll: edit.replaceAll ?? args.replaceAll }));
  }
  return [{ oldText: args.oldText ?? "", newText: args.newText ?? "", replaceAll: args.replaceAll }];
}

function summary(displayPath: string, counts: number[]): string {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const replaced = `${total} ${total === 1 ? "occurrence" : "occurrences"}`;
  if (counts.length === 1) return `Edited ${displayPath}: replaced ${replaced}.`;
  return `Edited ${displayPath}: applied ${counts.length} edits, replacing ${replaced}.`;
}

/** Reads, changes and rewrites exactly the file `target` names, through one verified descriptor. */
async function editFile(options: {
  target: string;
  displayPath: string;
  absPath: string;
  edits: TextEdit[];
  pins: ToolContext["pinnedTargets"];
}) {
  const { target, displayPath } = options;
  const file = openVerified({ target, intent: "update", displayPath });
  try {
    if (file.stats.isFile()) refuseUncheckedFile({ ...options, stats: file.stats, access: "write" });
    return await editOpenFile({ ...options, file });
  } finally {
    await closeFile(file);
  }
}

async function editOpenFile(options: {
  file: VerifiedFile;
  displayPath: string;
  absPath: string;
  edits: TextEdit[];
}): Promise<ToolResult> {
  const { file, displayPath, absPath, edits } = options;
  const empty: EditDetails = { path: absPath, edits: edits.length, replacements: 0, counts: [] };
  if (!file.stats.isFile()) {
    return failureResult(`${displayPath} is not a regular file; edit only changes files.`, empty);
  }
  // Read whole and held three times over (bytes, text, result): parallel edits of large sparse
  // files (truncate -s 300M) took a gigabyte of memory each, on the way to the host's end.
  if (file.stats.size > MAX_WHOLE_FILE_BYTES) {
    const text = `${displayPath} is ${formatBytes(file.stats.size)}, larger than edit loads (${formatBytes(MAX_WHOLE_FILE_BYTES)}); change it with bash (sed -i) instead. ${displayPath} was not changed.`;
    return failureResult(text, empty);
  }
  const raw = await readWhole(file);
  const content = raw.toString("utf8");
  // Rewriting text that did not decode cleanly would silently replace bytes with U+FFFD.
  if (!Buffer.from(content, "utf8").equals(raw)) {
    return failureResult(
      `${displayPath} is not valid UTF-8 text; edit cannot change it safely. Use write or bash.`,
      empty,
    );
  }
  const outcome = applyEdits({ content, edits, displayPath });
  if (!outcome.ok) return failureResult(`${outcome.message} ${displayPath} was not changed.`, empty);
  await writeWhole(file, Buffer.from(outcome.content, "utf8"));
  const replacements = outcome.counts.reduce((sum, n) => sum + n, 0);
  const details: EditDetails = { ...empty, replacements, counts: outcome.counts };
  details.firstChangedLine = outcome.firstChangedLine;
  const diff = raw.length <= MAX_DIFF_BYTES ? lineDiff(content, outcome.content) : undefined;
  if (diff) details.diff = diff;
  return textResult(summary(displayPath, outcome.counts), details);
}

/**
 * The `edit` built-in: exact-text replacements in an existing file, all or nothing.
 * Contract: runs through `queue` keyed by the file's real path (read, change and write happen
 * inside one queue slot, through one descriptor proven to be the file the guards pinned); on any
 * failure the file is left untouched.
 */
export function createEditTool(options: { queue: FileMutationQueue }): AnyToolDefinition {
  const { queue } = options;
  return defineTool({
    name: "edit",
    description:
      "Edit an existing file by replacing exact text. oldText must match the file exactly (whitespace and indentation included) and occur exactly once, unless replaceAll is true; add surrounding lines to make it unique. To make several changes in one call, pass edits: [{oldText, newText}, ...] instead; each is matched against the original file and they must not overlap. The file's line endings (LF or CRLF) are kept. Paths are relative to the working directory unless absolute; ~ is the home directory. To create a file or replace it whole, use write.",
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.edit;
    },
    effects: (args) => [{ kind: "write", path: args.path }],
    execute: async (args, ctx): Promise<ToolResult> => {
      let absPath: string | undefined;
      try {
        absPath = resolveFilePath(args.path, ctx.cwd, "edit");
        const resolved = absPath;
        // No await before enqueueing: the queue's order must be the order the calls arrived in.
        return await queue.run(resolved, async (target) => {
          if (ctx.signal.aborted) throw new Error(`Edit of ${args.path} was aborted before it started.`);
          const access = "write";
          const real = checkedTarget({ absPath: resolved, queued: target, displayPath: args.path, ctx, access });
          const edits = editsOf(args);
          return editFile({ target: real, displayPath: args.path, absPath: resolved, edits, pins: ctx.pinnedTargets });
        });
      } catch (error) {
        const text = describeFailure({ action: "edit", displayPath: args.path, absPath, error });
        return failureResult(text, { path: absPath ?? args.path, edits: 0, replacements: 0, counts: [] });
      }
    },
  });
}
