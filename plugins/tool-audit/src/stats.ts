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

/** What a record's field shows as a name: a string as it is, anything else (forged) as a fixed label. */
function nameOf(value: unknown): string {
  return typeof value === "string" ? value : INVALID;
}

/** The label counted for a tool name or outcome that is not a string (a record shaped by hand). */
const INVALID = "(not a string)";

/** A counter keyed by any string: no prototype, so "constructor" or "__proto__" count like any name. */
const counter = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/**
 * Counts calls per tool and outcome: every `call_end` by tool × outcome, plus starts without an end.
 * Contract: starts and ends pair by session and `toolCallId`; bad lines are counted, not fatal;
 * rejects only if the file cannot be read. Does not verify the chain: every field is read as
 * unverified input (a tool name or outcome that is not a string counts as "(not a string)", and
 * the counters have no prototype), so no record can make it throw or miscount.
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
    outcomes: counter(),
    ended: 0,
    unfinished: 0,
    tools: counter(),
  };
  const toolStats = (tool: string): ToolStats => {
    let entry = tools.get(tool);
    if (!entry) {
      entry = { ended: 0, outcomes: counter(), unfinished: 0 };
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
    const key = `${session}\u0000${nameOf(r.toolCallId)}`;
    const pending = open.get(key);
    if (r.kind === "call_start") {
      if (pending) pending.count++;
      else open.set(key, { tool: nameOf(r.tool), count: 1 });
      continue;
    }
    if (pending && --pending.count === 0) open.delete(key);
    const t = toolStats(nameOf(r.tool));
    const outcome = nameOf(r.outcome) as ToolOutcome;
    t.ended++;
    t.outcomes[outcome] = (t.outcomes[outcome] ?? 0) + 1;
    stats.ended++;
    stats.outcomes[outcome] = (stats.outcomes[outcome] ?? 0) + 1;
  }
  for (const { tool, count } of open.values()) {
    toolStats(tool).unfinished += count;
    stats.unfinished += count;
  }
  stats.sessions = sessions.size;
  for (const [tool, entry] of [...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) stats.tools[tool] = entry;
  return stats;
}
