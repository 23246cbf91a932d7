import { constants } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type AnyToolDefinition, defineTool } from "@gatehouse/sdk";
import { z } from "zod";
import type { FileMutationQueue } from "./file-mutation-queue.ts";
import { resolveToolPath } from "./resolve-path.ts";
import { describeFailure, failureResult, textResult } from "./tool-result.ts";
import { verifyTarget } from "./verify-target.ts";

const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** What a write result tells the host. */
export interface WriteDetails {
  /** The absolute path as the model spelled it (before symlinks are resolved). */
  path: string;
  bytes: number;
}

const parameters = z.object({
  path: z
    .string()
    .describe("File to write; relative to the working directory unless absolute; ~ is the home directory."),
  content: z.string().describe("The complete new content of the file."),
});

/**
 * The `write` built-in: creates or overwrites a file, creating missing parent directories.
 * Contract: runs through `queue` keyed by the file's real path, so it never interleaves with another
 * write or edit of the same file; it writes to the real target the queue resolved.
 */
export function createWriteTool(options: { queue: FileMutationQueue }): AnyToolDefinition {
  const { queue } = options;
  return defineTool({
    name: "write",
    description:
      "Create or overwrite a file with the given content; missing parent directories are created. Paths are relative to the working directory unless absolute; ~ is the home directory. This replaces the whole file: to change part of an existing file, use edit.",
    parameters,
    effects: (args) => [{ kind: "write", path: args.path }],
    execute: async (args, ctx) => {
      let absPath: string | undefined;
      try {
        const resolved = resolveToolPath(args.path, ctx.cwd);
        absPath = resolved;
        // No await before enqueueing: the queue's order must be the order the calls arrived in.
        const bytes = await queue.run(resolved, async (realTarget) => {
          if (ctx.signal.aborted) throw new Error(`Write to ${args.path} was aborted before it started.`);
          verifyTarget({ absPath: resolved, queued: realTarget, displayPath: args.path, ctx });
          await mkdir(path.dirname(realTarget), { recursive: true });
          const data = Buffer.from(args.content, "utf8");
          // O_NOFOLLOW: if the target became a symlink after it was verified, fail instead of following it.
          await writeFile(realTarget, data, { flag: WRITE_FLAGS });
          return data.length;
        });
        return textResult(`Wrote ${bytes} bytes to ${args.path}`, { path: absPath, bytes });
      } catch (error) {
        const text = describeFailure({ action: "write", displayPath: args.path, absPath, error });
        return failureResult(text, { path: absPath ?? args.path, bytes: 0 });
      }
    },
  });
}
