import { AssertionError } from "node:assert";
import type { AuditEntry } from "./call-records.ts";

/** What `expectBlocked` checks: the extension that blocked the call, and its reason (exact, or a pattern). */
export interface BlockedExpectation {
  by?: string;
  reason?: string | RegExp;
}

function fail(message: string, actual: unknown, expected: unknown): never {
  throw new AssertionError({ message, actual, expected, operator: "strictEqual" });
}

/** The entry of one call; fails naming the calls there were when there is none. */
export function entryOf(entries: readonly AuditEntry[], toolCallId: string): AuditEntry {
  const entry = entries.find((e) => e.toolCallId === toolCallId);
  if (entry) return entry;
  const known = entries.map((e) => `${e.toolCallId} (${e.toolName})`).join(", ") || "none";
  return fail(`no tool call "${toolCallId}" has ended; the calls that did: ${known}`, undefined, toolCallId);
}

/** Fails unless the call was blocked (by the extension and with the reason given, if given). */
export function expectBlocked(
  entries: readonly AuditEntry[],
  toolCallId: string,
  expected: BlockedExpectation = {},
): AuditEntry {
  const entry = entryOf(entries, toolCallId);
  const name = `tool call "${toolCallId}" (${entry.toolName})`;
  if (entry.outcome !== "blocked") {
    return fail(`${name} was ${entry.outcome}, not blocked: ${entry.text}`, entry.outcome, "blocked");
  }
  if (expected.by !== undefined && entry.blockedBy !== expected.by) {
    return fail(
      `${name} was blocked by ${entry.blockedBy ?? "nobody"}, not by ${expected.by}`,
      entry.blockedBy,
      expected.by,
    );
  }
  const { reason } = expected;
  if (reason !== undefined) {
    const matches = typeof reason === "string" ? entry.reason === reason : reason.test(entry.reason ?? "");
    if (!matches) return fail(`${name} was blocked for another reason: ${entry.reason}`, entry.reason, reason);
  }
  return entry;
}

/** Fails unless the call ran and succeeded. */
export function expectExecuted(entries: readonly AuditEntry[], toolCallId: string): AuditEntry {
  const entry = entryOf(entries, toolCallId);
  if (entry.outcome !== "executed") {
    const by = entry.blockedBy ? ` by ${entry.blockedBy}` : "";
    return fail(
      `tool call "${toolCallId}" (${entry.toolName}) was ${entry.outcome}${by}, not executed: ${entry.reason ?? entry.text}`,
      entry.outcome,
      "executed",
    );
  }
  return entry;
}
