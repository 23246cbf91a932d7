import { type AnyToolDefinition, builtinToolParameters, defineTool, type ToolContext } from "@gatehouse/sdk";
import { refuseUncheckedFile } from "./effect-pins.ts";
import type { FileMutationQueue } from "./file-mutation-queue.ts";
import { type LineDiff, lineDiff, MAX_DIFF_BYTES } from "./line-diff.ts";
import { resolveFilePath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { closeFile, openVerified, readWhole, writeWhole } from "./verified-open.ts";
import { checkedTarget } from "./verify-target.ts";

/** What a write result tells the host. */
export interface WriteDetails {
  /** The absolute path as the model spelled it (before symlinks are resolved). */
  path: string;
  bytes: number;
  /** True when the write created the file. */
  created?: boolean;
  /** What changed in an existing text file of at most 1 MiB (for viewers; not sent to the model). */
  diff?: LineDiff;
}

/**
 * Writes `content` to exactly the file `target` names (see `openVerified`).
 * Contract: a target that is not a regular file (a FIFO, a device), or a hard link made after the
 * guards checked it, is refused before anything is written; an existing file is truncated only once
 * it is proven to be the target. Its previous text (UTF-8, at most 1 MiB) is read through the same
 * descriptor, so the diff describes exactly the file that was replaced; a file the guards deny
 * reading gets no diff, since its old lines would reach every event subscriber and the session.
 */
async function writeTarget(options: {
  target: string;
  displayPath: string;
  content: string;
  pins: ToolContext["pinnedTargets"];
  /** The guards' read filter: a file they deny reading gets no diff (it would show its old lines). */
  canRead: ToolContext["canRead"];
}): Promise<Omit<WriteDetails, "path">> {
  const { target, displayPath } = options;
  const file = openVerified({ target, intent: "replace", displayPath });
  try {
    if (!file.stats.isFile()) throw new Error(`${displayPath} is not a regular file; nothing was written.`);
    refuseUncheckedFile({ pins: options.pins, target, stats: file.stats, displayPath, access: "write" });
    const data = Buffer.from(options.content, "utf8");
    const readable = options.canRead?.(target) !== false;
    const before =
      readable && !file.created && file.stats.size <= MAX_DIFF_BYTES
        ? await readWhole(file).catch(() => undefined)
        : undefined;
    await writeWhole(file, data);
    const previous = before?.toString("utf8");
    const diff =
      previous !== undefined && Buffer.from(previous, "utf8").equals(before as Buffer)
        ? lineDiff(previous, options.content)
        : undefined;
    return { bytes: data.length, ...(file.created ? { created: true } : {}), ...(diff ? { diff } : {}) };
  } finally {
    await closeFile(file);
  }
}

/**
 * The `write` built-in: creates or overwrites a file, creating missing parent directories.
 * Contract: runs through `queue` keyed by the file's real path, so it never interleaves with another
 * write or edit of the same file; it writes exactly the file the queue resolved and the guards
 * pinned, through a verified descriptor: a folder swapped for a link makes the call fail, never
 * land elsewhere.
 */
export function createWriteTool(options: { queue: FileMutationQueue }): AnyToolDefinition {
  const { queue } = options;
  return defineTool({
    name: "write",
    description:
      "Create or overwrite a file with the given content; missing parent directories are created. Paths are relative to the working directory unless absolute; ~ is the home directory. This replaces the whole file: to change part of an existing file, use edit.",
    // A getter: the SDK builds the schemas when one is first read (a run validating a call), not
    // when a command that only lists tools starts.
    get parameters() {
      return builtinToolParameters.write;
    },
    effects: (args) => [{ kind: "write", path: args.path }],
    execute: async (args, ctx) => {
      let absPath: string | undefined;
      try {
        const resolved = resolveFilePath(args.path, ctx.cwd, "write");
        absPath = resolved;
        // No await before enqueueing: the queue's order must be the order the calls arrived in.
        const written = await queue.run(resolved, async (realTarget) => {
          if (ctx.signal.aborted) throw new Error(`Write to ${args.path} was aborted before it started.`);
          const access = "write";
          const target = checkedTarget({ absPath: resolved, queued: realTarget, displayPath: args.path, ctx, access });
          return writeTarget({
            target,
            displayPath: args.path,
            content: args.content,
            pins: ctx.pinnedTargets,
            canRead: ctx.canRead,
          });
        });
        return textResult(`Wrote ${written.bytes} ${written.bytes === 1 ? "byte" : "bytes"} to ${args.path}`, {
          path: absPath,
          ...written,
        });
      } catch (error) {
        const text = describeFailure({ action: "write", displayPath: args.path, absPath, error });
        return failureResult(text, { path: absPath ?? args.path, bytes: 0 });
      }
    },
  });
}
