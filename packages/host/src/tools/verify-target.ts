import type { ToolContext } from "@gatehouse/sdk";
import { resolveRealPath } from "./real-path.ts";

/**
 * Re-resolves a write target under the file-mutation queue, just before the write.
 * Contract: throws (so the call ends as an error result and nothing is written) when the path now
 * resolves to a different file than when it was queued, or than a guard checked and pinned —
 * e.g. a symlink swapped in between the policy check and the write.
 */
export function verifyTarget(options: {
  absPath: string;
  queued: string;
  displayPath: string;
  ctx: ToolContext;
}): void {
  const { absPath, queued, displayPath, ctx } = options;
  const now = resolveRealPath(absPath);
  if (now !== queued) {
    throw new Error(
      `${displayPath} changed while the write was queued (it now resolves to ${now}); nothing was written`,
    );
  }
  const pinned = ctx.pinnedTargets?.get(absPath);
  if (pinned?.some((real) => real !== now)) {
    throw new Error(
      `${displayPath} resolves to ${now}, not to the file the policy check allowed (${pinned.join(", ")}); nothing was written`,
    );
  }
}
