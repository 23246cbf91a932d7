import { hash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ToolEffect, ToolExecutionEndEvent, ToolResult } from "@gatehouse/sdk";
import { auditLocation, projectLogSegments } from "./audit-location.ts";
import { locationProblem, prepareAudit } from "./audit-prepare.ts";
import { type AuditSession, openAuditSession } from "./audit-session.ts";
import type { ToolAuditConfig } from "./config.ts";
import { gatehouseVersion } from "./gatehouse-version.ts";
import { readBoundedText } from "./read-bounded.ts";
import { createRedactor, mergeVerbatim } from "./redact.ts";
import { removeFile } from "./remove-file.ts";
import type { AuditWriteFailure } from "./sink.ts";

/** One thing another agent's hook saw: a call about to run, or how one ended. */
export type ExternalCallEvent =
  | { kind: "start"; toolCallId: string; tool: string; args: Record<string, unknown> }
  | {
      kind: "end";
      toolCallId: string;
      tool: string;
      args: Record<string, unknown>;
      outcome: ToolExecutionEndEvent["outcome"];
      isError: boolean;
      blockedBy?: string;
      reason?: string;
      /** Only its sizes are recorded. */
      result?: ToolResult;
      effects?: readonly ToolEffect[];
    };

/** Options of `recordExternalCalls`. */
export interface ExternalCallsOptions {
  /** The project directory. */
  cwd: string;
  /** GATEHOUSE_HOME. */
  home: string;
  /** Creates (or checks) a private folder under GATEHOUSE_HOME, like `api.privateDir`. */
  privateDir: (...segments: string[]) => string;
  /**
   * The effective `config.tool-audit` section as the loaded extension parsed and merged it
   * (defaults filled in): the extension record's `config.value`.
   */
  config: ToolAuditConfig;
  /**
   * The Gatehouse release that records (default: the version of the `@gatehouse/sdk` package this
   * plugin resolves, which costs a package resolution).
   */
  version?: string;
}

/** What recording did: `stops` when the failure must block the call (`onWriteError: "stop"` or tampering). */
export type ExternalCallsResult = { ok: true } | { ok: false; error: string; stops: boolean };

const PENDING = ["audit", "pending"];

/** The file that carries a started call from its hook process to the one that records its end. */
function pendingFile(options: ExternalCallsOptions, toolCallId: string): string {
  const dir = options.privateDir(...PENDING, projectLogSegments(options.cwd).at(-1) as string);
  return join(dir, `${hash("sha256", toolCallId, "hex").slice(0, 40)}.json`);
}

/** The most a note can hold: a session id and a time. */
const MAX_NOTE_BYTES = 4096;

/** Writes a note in place: never through a link, never waiting on a FIFO, only into a regular file. */
function writeNote(file: string, text: string): void {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const fd = openSync(file, flags, 0o600);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file`);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function takePending(file: string): { session: string; startedAtMs: number } | undefined {
  try {
    // Read as a seal is: a FIFO, a link or a huge file in its place is refused, never waited on or read whole.
    const text = readBoundedText(file, MAX_NOTE_BYTES);
    removeFile(file);
    const value = JSON.parse(text) as { session?: unknown; startedAtMs?: unknown };
    if (typeof value.session === "string" && typeof value.startedAtMs === "number") {
      return { session: value.session, startedAtMs: value.startedAtMs };
    }
  } catch {
    // No start was recorded for this call (or its note is unreadable): the end is recorded unpaired.
  }
  return undefined;
}

/**
 * Records tool calls of another agent (Claude Code, Codex), seen by its hook processes: each
 * process writes one sealed session of the project's log (`session_start`, its records,
 * `session_end`) with the same chain, seals, redaction and secret scrubbing as a Gatehouse run. A
 * start whose end comes from a later process leaves a private note (GATEHOUSE_HOME, never the
 * workspace) with its session and time; the end takes it and names that session (`startSession`)
 * and the duration, so starts and ends pair by `toolCallId` across processes.
 * Contract: never throws; never records result text, write contents, edit texts or commands
 * verbatim; a log, key or seal that cannot be used is `{ ok: false }` (with `stops` unless
 * `onWriteError` is "warn").
 */
export async function recordExternalCalls(
  options: ExternalCallsOptions,
  events: readonly ExternalCallEvent[],
): Promise<ExternalCallsResult> {
  const { config } = options;
  let failure: AuditWriteFailure | undefined;
  const stops = () => config.onWriteError === "stop" || failure?.op === "replaced";
  let session: AuditSession | undefined;
  try {
    const location = auditLocation({ home: options.home, cwd: options.cwd, file: config.file, key: config.key });
    const refused = locationProblem(location, config, options.cwd);
    if (refused) return { ok: false, stops: true, error: refused };
    const prepared = prepareAudit({ cwd: options.cwd, privateDir: options.privateDir }, location);
    session = openAuditSession({
      file: location.file,
      sealDir: prepared.sealDir,
      key: prepared.key,
      fsync: config.fsync,
      onFileReplaced: config.onFileReplaced,
      onError: (f) => {
        failure ??= f;
      },
      cwd: options.cwd,
      config: { fsync: config.fsync, onWriteError: config.onWriteError },
      redact: createRedactor({ verbatim: mergeVerbatim(config.verbatim) }),
      gatehouse: options.version ?? gatehouseVersion(),
    });
    const ended = new Set(events.flatMap((e) => (e.kind === "end" ? [e.toolCallId] : [])));
    session.recorder.turnStart();
    for (const event of events) {
      if (event.kind === "start") {
        session.recorder.callStart({ toolCallId: event.toolCallId, toolName: event.tool, args: event.args });
        if (!ended.has(event.toolCallId)) {
          const note = { session: session.recorder.session, startedAtMs: Date.now() };
          writeNote(pendingFile(options, event.toolCallId), JSON.stringify(note));
        }
        continue;
      }
      const startedIn = takePending(pendingFile(options, event.toolCallId));
      const end: ToolExecutionEndEvent = {
        type: "tool_execution_end",
        toolCallId: event.toolCallId,
        toolName: event.tool,
        args: event.args,
        result: event.result ?? { content: [] },
        isError: event.isError,
        outcome: event.outcome,
        ...(event.blockedBy !== undefined ? { blockedBy: event.blockedBy } : {}),
        ...(event.reason !== undefined ? { reason: event.reason } : {}),
        ...(event.effects !== undefined ? { effects: event.effects } : {}),
      };
      session.recorder.callEnd(end, startedIn);
    }
  } catch (error) {
    failure ??= { code: "GH_AUDIT_WRITE", file: "", op: "open", message: (error as Error).message };
  }
  // Whatever failed, the session ends here: what it recorded is written and sealed closed, not
  // left behind as a run that never closed (and, with "warn", not dropped unwritten).
  await session?.close();
  if (!failure) return { ok: true };
  return { ok: false, stops: stops(), error: `the audit log cannot be written: ${failure.message}` };
}
