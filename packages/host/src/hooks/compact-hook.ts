import type { Message } from "@gatehouse/sdk";
import { tapable } from "../common/lazy-tapable.ts";
import type { CompactHandler } from "./registrations.ts";
import { runHandler } from "./run-handler.ts";
import type { StageOptions } from "./tool-call-stages.ts";

/** The proposal passed down the `session_before_compact` chain. */
export interface CompactProposal {
  summary: string | undefined;
  keepLast: number;
  messages: readonly Message[];
  cancelledBy?: { extension: string; reason: string };
}

/**
 * `session_before_compact`: each handler sees the summary proposed so far and may replace it or
 * cancel the compaction. Fail closed: a handler that throws or times out cancels it (nothing is
 * summarised on a broken handler's behalf), naming the extension.
 */
export function compactHook(taps: readonly { extension: string; handler: CompactHandler }[], options: StageOptions) {
  const { AsyncSeriesWaterfallHook } = tapable();
  const hook = new AsyncSeriesWaterfallHook<[CompactProposal]>(["proposal"]);
  for (const { extension, handler } of taps) {
    hook.tapPromise(extension, async (proposal) => {
      if (proposal.cancelledBy) return proposal;
      const event = { summary: proposal.summary, keepLast: proposal.keepLast, messages: proposal.messages };
      const out = await runHandler(handler, event, { signal: new AbortController().signal }, options.deadlines);
      if (!out.ok) {
        options.onError({ extension, hook: "session_before_compact", error: out.error, timedOut: out.timedOut });
        return { ...proposal, cancelledBy: { extension, reason: `its handler failed (${out.error.message})` } };
      }
      const value = out.value as { summary?: unknown; cancel?: unknown; reason?: unknown } | undefined;
      if (value?.cancel === true) {
        return {
          ...proposal,
          cancelledBy: { extension, reason: typeof value.reason === "string" ? value.reason : "cancelled" },
        };
      }
      if (typeof value?.summary === "string") return { ...proposal, summary: value.summary };
      return proposal;
    });
  }
  return hook;
}
