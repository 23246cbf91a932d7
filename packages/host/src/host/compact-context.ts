import type { Message } from "@gatehouse/sdk";
import type { HookBus } from "../hooks/hook-bus.ts";
import type { Session } from "../session/session.ts";
import type { CompactResult } from "./types.ts";

/**
 * `host.compact`: asks `session_before_compact` handlers for the summary (or a veto), appends the
 * compaction entry and swaps the model's context for the compacted one in place.
 * Contract: the session file keeps every entry; the audit is never touched.
 */
export async function compactContext(options: {
  session: Session;
  bus: HookBus;
  context: Message[];
  summary: string | undefined;
  keepLast: number;
}): Promise<CompactResult> {
  const { session, bus, context, keepLast } = options;
  const path = session.path().filter((e) => e.type === "message");
  const proposal = await bus.beforeCompact({
    summary: options.summary,
    keepLast,
    messages: path.slice(0, Math.max(0, path.length - keepLast)).map((e) => (e as { message: Message }).message),
  });
  if (proposal.cancelledBy) {
    return {
      compacted: false,
      reason: `cancelled by ${proposal.cancelledBy.extension}: ${proposal.cancelledBy.reason}`,
    };
  }
  if (proposal.summary === undefined) {
    return { compacted: false, reason: "no summary was given or supplied by an extension" };
  }
  const entry = session.compact({ summary: proposal.summary, keepLast });
  if (!entry) return { compacted: false, reason: `nothing to compact: the context has at most ${keepLast} messages` };
  context.splice(0, context.length, ...session.context().messages);
  return {
    compacted: true,
    entryId: entry.id,
    summarized: path.length - (context.length - 1),
    kept: context.length - 1,
  };
}
