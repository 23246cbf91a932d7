import type { ToolContext } from "@gatehouse/sdk";
import { resolveRealPath } from "./real-path.ts";

/**
 * The real file a tool must open for `absPath`, re-resolved just before the open.
 * Contract: throws (so the call ends as an error result and nothing is read or written) when the
 * path now resolves to a different file than when it was queued (`queued`, writes), or than any
 * guard checked and pinned (`ctx.pinnedTargets`) — e.g. a symlink swapped in between the policy
 * check and the use. The returned path is what `openVerified` then proves it opened.
 */
export function checkedTarget(options: {
  absPath: string;
  displayPath: string;
  ctx: ToolContext;
  access: "read" | "write";
  queued?: string;
}): string {
  const { absPath, displayPath, ctx, access, queued } = options;
  const nothing = access === "read" ? "nothing was read" : "nothing was written";
  const now = resolveRealPath(absPath);
  if (queued !== undefined && now !== queued) {
    throw new Error(`${displayPath} changed while the write was queued (it now resolves to ${now}); ${nothing}`);
  }
  const pinned = ctx.pinnedTargets?.get(absPath);
  if (pinned?.some((real) => real !== now)) {
    throw new Error(
      `${displayPath} resolves to ${now}, not to the file the policy check allowed (${pinned.join(", ")}); ${nothing}`,
    );
  }
  return now;
}
