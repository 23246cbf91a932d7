import type { AnyToolDefinition } from "@gatehouse/sdk";
import { createBashTool } from "./bash.ts";
import { createEditTool } from "./edit.ts";
import { FileMutationQueue } from "./file-mutation-queue.ts";
import { createFindTool } from "./find.ts";
import { createGrepTool } from "./grep.ts";
import { createLsTool } from "./ls.ts";
import { createReadTool } from "./read.ts";
import type { ShellGroups } from "./shell-groups.ts";
import { createWriteTool } from "./write.ts";

/**
 * The queue every tool set shares unless given its own: the file system is process-wide, so two
 * hosts in one process must still serialise their writes to the same file.
 */
export const sharedMutationQueue = new FileMutationQueue();

/** Options of `createBuiltinTools`. */
export interface BuiltinToolsOptions {
  /** Queue for write and edit; defaults to the process-wide `sharedMutationQueue`. */
  mutationQueue?: FileMutationQueue;
  /** Where bash remembers the background jobs a command left, for the host to kill when a run ends. */
  shellGroups?: ShellGroups;
}

/**
 * Fresh definitions of the seven built-in tools, in this order: read, write, edit, ls, find, grep, bash.
 * Contract: every call returns new objects (callers may wrap or replace them freely); write and
 * edit share `options.mutationQueue`, or the process-wide queue when none is given.
 */
export function createBuiltinTools(options?: BuiltinToolsOptions): AnyToolDefinition[] {
  const queue = options?.mutationQueue ?? sharedMutationQueue;
  return [
    createReadTool(),
    createWriteTool({ queue }),
    createEditTool({ queue }),
    createLsTool(),
    createFindTool(),
    createGrepTool(),
    createBashTool(options?.shellGroups ? { groups: options.shellGroups } : {}),
  ];
}
