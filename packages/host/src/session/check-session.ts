import { readFileSync } from "node:fs";
import { errorMessage } from "../common/errors.ts";
import { buildContext } from "./build-context.ts";
import { isKnownEntry, SESSION_VERSION, type SessionEntry } from "./session-format.ts";
import { SessionTree } from "./session-tree.ts";

/** One finding of `gatehouse session check`. */
export interface SessionProblem {
  severity: "error" | "warning";
  /** 1-based line in the file, when the problem is on one line. */
  line?: number | undefined;
  message: string;
}

/** The verdict on a session file: `ok` unless some problem is an error. */
export interface SessionCheck {
  file: string;
  ok: boolean;
  entries: number;
  problems: SessionProblem[];
}

/**
 * Checks a session file without changing it: header, every line (corrupt ones by number, and it
 * keeps going), a torn last line, duplicate ids, parents that do not exist, unknown entry types,
 * and tool calls on the current path that have no recorded result.
 */
export function checkSession(file: string): SessionCheck {
  const problems: SessionProblem[] = [];
  const result = (entries: number): SessionCheck => ({
    file,
    ok: !problems.some((p) => p.severity === "error"),
    entries,
    problems,
  });
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    problems.push({ severity: "error", message: `cannot read: ${errorMessage(error)}` });
    return result(0);
  }
  const lines = text.split("\n");
  const torn = lines.pop();
  if (torn)
    problems.push({
      severity: "warning",
      line: lines.length + 1,
      message: `incomplete last line (${torn.length} chars, a write was cut off); it will be ignored and removed on the next append`,
    });
  const entries: SessionEntry[] = [];
  const ids = new Map<string, number>();
  lines.forEach((raw, index) => {
    const line = index + 1;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ severity: "error", line, message: `corrupt line: ${errorMessage(error)}` });
      return;
    }
    if (line === 1) {
      if (value.type !== "session")
        problems.push({ severity: "error", line, message: "the first line is not a session header" });
      else if (typeof value.version !== "number" || value.version > SESSION_VERSION) {
        problems.push({ severity: "error", line, message: `unsupported session version ${String(value.version)}` });
      }
      return;
    }
    if (typeof value.id !== "string" || typeof value.type !== "string") {
      problems.push({ severity: "error", line, message: "entry without a string id and type" });
      return;
    }
    const entry = value as unknown as SessionEntry;
    if (ids.has(entry.id))
      problems.push({
        severity: "error",
        line,
        message: `duplicate id ${entry.id} (first on line ${ids.get(entry.id)})`,
      });
    ids.set(entry.id, line);
    if (entry.parentId !== null && !ids.has(entry.parentId)) {
      problems.push({
        severity: "error",
        line,
        message: `parent ${String(entry.parentId)} does not precede this entry`,
      });
    }
    if (!isKnownEntry(entry))
      problems.push({ severity: "warning", line, message: `unknown entry type "${entry.type}" (kept, not used)` });
    entries.push(entry);
  });
  try {
    const tree = new SessionTree(entries);
    for (const orphan of buildContext(tree.pathTo(tree.leaf)).orphans) {
      problems.push({
        severity: "warning",
        line: ids.get(orphan.entryId),
        message: `tool call ${orphan.toolCallId} (${orphan.toolName}) has no recorded result; resuming answers it with an explicit error result`,
      });
    }
  } catch (error) {
    problems.push({ severity: "error", message: errorMessage(error) });
  }
  return result(entries.length);
}
