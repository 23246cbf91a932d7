import { GatehouseError } from "@gatehouse/host";
import {
  type AuditEntry,
  auditStats,
  tailAudit,
  VERDICT_EXIT_CODES,
  verifyAuditFile,
} from "@gatehouse/tool-audit/readers";
import {
  type AuditLog,
  AuditLogError,
  absentLogMessage,
  auditKeyFor,
  findAuditLog,
  type LogPresence,
  logPresence,
} from "./audit-log.ts";
import type { CliIo } from "./io.ts";
import { parseFlags } from "./parse-flags.ts";

const USAGE = `gatehouse audit verify [FILE] [--cwd DIR] [--key FILE] [--seals DIR] [--json]
       gatehouse audit tail [FILE] [--lines N] [--follow] [--json] [--cwd DIR]
       gatehouse audit stats [FILE] [--cwd DIR] [--json]`;

/** Exit code of every audit command for a log that is missing or empty with nothing sealed. */
const NO_LOG = VERDICT_EXIT_CODES.no_log;
/** Exit code of every audit command for a log that is missing or empty although seals vouch for records. */
const LOG_GONE = VERDICT_EXIT_CODES.replaced;
/** Exit code for a log or key that cannot be used as it is. */
const UNUSABLE = 1;

function line(entry: AuditEntry): string {
  if (!entry.ok) return `line ${entry.line}: not a record (${entry.error})`;
  const r = entry.record as unknown as Record<string, unknown>;
  const parts = [String(r.ts), `${String(r.session).slice(0, 8)}#${r.seq}`, String(r.kind).padEnd(13)];
  if (r.tool) parts.push(String(r.tool), String(r.toolCallId));
  if (r.kind === "call_end") {
    parts.push(String(r.outcome));
    if (r.blockedBy) parts.push(`by ${r.blockedBy}`);
  }
  return parts.join("  ");
}

/** Missing or empty: the same message and exit code for verify, tail and stats. */
function absent(io: CliIo, log: AuditLog, presence: Exclude<LogPresence, { state: "present" }>): number {
  io.stderr.write(`gatehouse: ${absentLogMessage(log, presence)}\n`);
  return presence.sealedRecords > 0 ? LOG_GONE : NO_LOG;
}

async function verify(io: CliIo, log: AuditLog, json: boolean): Promise<number> {
  const presence = logPresence(log);
  const key = auditKeyFor(log);
  if (presence.state !== "present" && !json) {
    const code = absent(io, log, presence);
    if (code === NO_LOG) return code;
  }
  const report = await verifyAuditFile(log.file, { key, sealDir: log.sealDir });
  const exitCode = VERDICT_EXIT_CODES[report.verdict];
  io.stdout.write(json ? `${JSON.stringify({ ...report, exitCode }, null, 2)}\n` : `${report.summary}\n`);
  return exitCode;
}

async function stats(io: CliIo, log: AuditLog, json: boolean): Promise<number> {
  const presence = logPresence(log);
  if (presence.state !== "present") return absent(io, log, presence);
  const result = await auditStats(log.file);
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(
    `${log.file}: ${result.records} records, ${result.sessions} sessions, ${result.ended} calls ended, ${result.unfinished} unfinished\n`,
  );
  for (const [tool, s] of Object.entries(result.tools)) {
    const outcomes = Object.entries(s.outcomes)
      .map(([outcome, n]) => `${outcome} ${n}`)
      .join(", ");
    io.stdout.write(`  ${tool.padEnd(16)} ${outcomes}${s.unfinished ? `, unfinished ${s.unfinished}` : ""}\n`);
  }
  return 0;
}

async function tail(
  io: CliIo,
  log: AuditLog,
  options: { lines?: string; follow: boolean; json: boolean },
): Promise<number> {
  const lines = options.lines === undefined ? 10 : Number(options.lines);
  if (!Number.isInteger(lines) || lines < 0)
    throw new GatehouseError("GH_USAGE", `--lines must be a whole number.\nusage: ${USAGE}`);
  const presence = logPresence(log);
  if (presence.state !== "present") {
    if (!options.follow) return absent(io, log, presence);
    io.stderr.write(`gatehouse: ${absentLogMessage(log, presence)}; waiting for records\n`);
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  try {
    await tailAudit(log.file, {
      lines,
      follow: options.follow,
      signal: controller.signal,
      onRecord: (entry) => io.stdout.write(`${options.json ? entry.text : line(entry)}\n`),
    });
    return 0;
  } finally {
    process.off("SIGINT", stop);
  }
}

/**
 * `gatehouse audit`: verify the log against its key and seals, tail the records, or count calls
 * per tool and outcome. Without FILE the log is the project's (found from --cwd).
 * Contract: `verify` exits with the code of its verdict (`VERDICT_EXIT_CODES`: 0 intact, 3 unsealed
 * tail, 4 not authenticated, 5 no log, 6 tampered, 7 truncated, 8 session deleted, 9 emptied or
 * replaced, 10 reordered, 1 unreadable). A missing or empty log gets the same message and exit
 * code from verify, tail and stats (5, or 9 when seals vouch for records); a log or key that
 * cannot be used exits 1 naming it — never a stack trace, never a hang.
 */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseFlags(
    rest,
    {
      cwd: { type: "string" },
      key: { type: "string" },
      seals: { type: "string" },
      json: { type: "boolean", default: false },
      lines: { type: "string" },
      follow: { type: "boolean", default: false },
    },
    USAGE,
  );
  if (sub !== "verify" && sub !== "stats" && sub !== "tail") {
    throw new GatehouseError("GH_USAGE", `unknown audit command "${sub ?? ""}".\nusage: ${USAGE}`);
  }
  try {
    const log = findAuditLog(io, values, positionals[0]);
    if (sub === "verify") return await verify(io, log, values.json);
    if (sub === "stats") return await stats(io, log, values.json);
    return await tail(io, log, values);
  } catch (error) {
    if (!(error instanceof AuditLogError)) throw error;
    io.stderr.write(`gatehouse: ${error.message}\n`);
    return UNUSABLE;
  }
}
