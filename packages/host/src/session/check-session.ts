import { closeSync, constants, readFileSync } from "node:fs";
import { errorMessage, GatehouseError } from "../common/errors.ts";
import { findTooDeep } from "../common/json-depth.ts";
import { buildContext } from "./build-context.ts";
import { corruptLineReason, MAX_LINE_DEPTH, tooDeepReason } from "./corrupt-line.ts";
import { entryProblem } from "./entry-shape.ts";
import { isKnownEntry, SESSION_VERSION, type SessionEntry } from "./session-format.ts";
import { openSessionFile } from "./session-path.ts";
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
 * and tool calls on the current path that have no recorded result. Every entry is checked with
 * the same rules as reading a session (`entryProblem`), so a file that passes opens.
 * Contract: a path that is not a regular file on storage (a directory, a FIFO, a device, /proc)
 * or cannot be read throws GH_SESSION at once without reading it; problems with the contents are
 * listed with their line numbers, never thrown.
 */
export function checkSession(file: string): SessionCheck {
  const problems: SessionProblem[] = [];
  const result = (entries: number): SessionCheck => ({
    file,
    ok: !problems.some((p) => p.severity === "error"),
    entries,
    problems,
  });
  const fd = openSessionFile(file, constants.O_RDONLY);
  let text: string;
  try {
    text = readFileSync(fd, "utf8");
  } catch (error) {
    throw new GatehouseError("GH_SESSION", `Cannot read session ${file}: ${errorMessage(error)}`, { cause: error });
  } finally {
    closeSync(fd);
  }
  const lines = text.split("\n");
  const torn = lines.pop();
  if (torn)
    problems.push({
      severity: "warning",
      line: lines.length + 1,
      message: `incomplete last line (${torn.length} chars, a write was cut off); it will be ignored and removed on the next append`,
    });
  if (lines.length === 0 || (lines.length === 1 && lines[0]?.trim() === "")) {
    problems.push({ severity: "error", line: 1, message: "empty session file (no header line)" });
    return result(0);
  }
  const entries: SessionEntry[] = [];
  const ids = new Map<string, number>();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const deep = findTooDeep(raw, MAX_LINE_DEPTH);
    if (deep !== undefined) {
      problems.push({ severity: "error", line, message: tooDeepReason(deep) });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ severity: "error", line, message: corruptLineReason(raw) });
      return;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      problems.push({ severity: "error", line, message: "corrupt line (not a JSON object)" });
      return;
    }
    const record = value as Record<string, unknown>;
    if (line === 1) {
      if (record.type !== "session" || typeof record.id !== "string")
        problems.push({ severity: "error", line, message: "the first line is not a session header" });
      else if (typeof record.version !== "number" || record.version > SESSION_VERSION) {
        problems.push({
          severity: "error",
          line,
          message: `unsupported session version ${JSON.stringify(record.version) ?? "(none)"}`,
        });
      }
      return;
    }
    const problem = entryProblem(record, ids);
    if (problem !== undefined) {
      problems.push({ severity: "error", line, message: problem });
      // A later reference to this id is a consequence, not another problem: keep the first line only.
      if (typeof record.id === "string" && !ids.has(record.id)) ids.set(record.id, line);
      return;
    }
    const entry = record as unknown as SessionEntry;
    ids.set(entry.id, line);
    if (!isKnownEntry(entry))
      problems.push({
        severity: "warning",
        line,
        message: `unknown entry type ${JSON.stringify(entry.type)} (kept, not used)`,
      });
    entries.push(entry);
  });
  // The context is worked out only for a well-formed file: every entry and reference checked above.
  if (problems.some((p) => p.severity === "error")) return result(entries.length);
  const tree = new SessionTree(entries);
  for (const orphan of buildContext(tree.pathTo(tree.leaf)).orphans) {
    problems.push({
      severity: "warning",
      line: ids.get(orphan.entryId),
      message: `tool call ${orphan.toolCallId} (${orphan.toolName}) has no recorded result; resuming answers it with an explicit error result`,
    });
  }
  return result(entries.length);
}
