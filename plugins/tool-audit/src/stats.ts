import type { ToolOutcome } from "@gatehouse/sdk";
import { readRecords } from "./read-records.ts";

/** Calls of one tool. */
export interface ToolStats {
  /** Calls that ended (one `call_end` each). */
  ended: number;
  outcomes: Partial<Record<ToolOutcome, number>>;
  /** Calls with a `call_start` and no `call_end` (the run was killed while they ran). */
  unfinished: number;
}

/** Calls per tool and outcome over a whole audit file. */
export interface AuditStats {
  file: string;
  records: number;
  sessions: number;
  /** Lines that are not records (see `verifyAuditFile` for why). */
  badLines: number;
  /** Every call_end, by outcome. */
  outcomes: Partial<Record<ToolOutcome, number>>;
  ended: number;
  unfinished: number;
  /** By tool name, sorted. */
  tools: Record<string, ToolStats>;
}

/**
 * Counts calls per tool and outcome: every `call_end` by tool × outcome, plus starts without an end.
 * Contract: starts and ends pair by session and `toolCallId`; bad lines are counted, not fatal;
 * rejects only if the file cannot be read. Does not verify the chain.
 */
export async function auditStats(file: string): Promise<AuditStats> {
  const tools = new Map<string, ToolStats>();
  const open = new Map<string, { tool: string; count: number }>();
  const sessions = new Set<string>();
  const stats: AuditStats = {
    file,
    records: 0,
    sessions: 0,
    badLines: 0,
    outcomes: {},
    ended: 0,
    unfinished: 0,
    tools: {},
  };
  const toolStats = (tool: string): ToolStats => {
    let entry = tools.get(tool);
    if (!entry) {
      entry = { ended: 0, outcomes: {}, unfinished: 0 };
      tools.set(tool, entry);
    }
    return entry;
  };
  for await (const entry of readRecords(file)) {
    if (!entry.ok) {
      stats.badLines++;
      continue;
    }
    const r = entry.record;
    stats.records++;
    sessions.add(r.session);
    if (r.kind !== "call_start" && r.kind !== "call_end") continue;
    // An end recorded by another session (an agent hook's Post process) pairs with its start there.
    const session = r.kind === "call_end" && typeof r.startSession === "string" ? r.startSession : r.session;
    const key = `${session}\u0000${r.toolCallId}`;
    const pending = open.get(key);
    if (r.kind === "call_start") {
      if (pending) pending.count++;
      else open.set(key, { tool: String(r.tool), count: 1 });
      continue;
    }
    if (pending && --pending.count === 0) open.delete(key);
    const t = toolStats(String(r.tool));
    t.ended++;
    t.outcomes[r.outcome] = (t.outcomes[r.outcome] ?? 0) + 1;
    stats.ended++;
    stats.outcomes[r.outcome] = (stats.outcomes[r.outcome] ?? 0) + 1;
  }
  for (const { tool, count } of open.values()) {
    toolStats(tool).unfinished += count;
    stats.unfinished += count;
  }
  stats.sessions = sessions.size;
  stats.tools = Object.fromEntries([...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return stats;
}
