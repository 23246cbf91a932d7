import type { AuditKey } from "@gatehouse/tool-audit/readers";
import { auditStats, tailAudit, VERDICT_EXIT_CODES, verifyAuditFile } from "@gatehouse/tool-audit/readers";
import { alignRow, type ColumnWidths, fitColumns, statsLines, tailCells } from "./audit-lines.ts";
import {
  type AuditLog,
  AuditLogError,
  absentLogMessage,
  auditKeyFor,
  findAuditLog,
  type LogPresence,
  logPresence,
} from "./audit-log.ts";
import { parseCommand, usageError } from "./help/parse-command.ts";
import { pickSubcommand } from "./help/subcommand.ts";
import type { CliIo } from "./io.ts";
import { fitToTerminal, printError } from "./messages.ts";
import { auditSpec, statsSpec, tailSpec, verifySpec } from "./specs/index.ts";

/** Exit code of every audit command for a log that is missing or empty with nothing sealed. */
const NO_LOG = VERDICT_EXIT_CODES.no_log;
/** Exit code of every audit command for a log that is missing or empty although seals vouch for records. */
const LOG_GONE = VERDICT_EXIT_CODES.replaced;
/** Exit code for a log or key that cannot be used as it is. */
const UNUSABLE = 1;

/** Missing or empty: the same message and exit code for verify, tail and stats. */
function absent(io: CliIo, log: AuditLog, presence: Exclude<LogPresence, { state: "present" }>): number {
  printError(io, absentLogMessage(log, presence));
  return presence.sealedRecords > 0 ? LOG_GONE : NO_LOG;
}

/**
 * The key tail and stats count sealed records with when the log is missing or empty: they read
 * records without verifying them, so a key that cannot be used does not stop them (verify names
 * it); without one, the seals are counted so that no forged line can lower the count.
 */
function presenceKey(log: AuditLog): AuditKey | undefined {
  try {
    return auditKeyFor(log);
  } catch (error) {
    if (error instanceof AuditLogError) return undefined;
    throw error;
  }
}

/** The report's summary for people: the verdict first, then the log it is about. */
function verdictText(summary: string, file: string): string {
  const head = `${file}: `;
  const body = summary.startsWith(head) ? summary.slice(head.length) : summary;
  return `${body}\nlog: ${file}\n`;
}

async function verify(io: CliIo, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(verifySpec, args);
  const log = findAuditLog(io, values, positionals[0]);
  const key = auditKeyFor(log);
  const presence = logPresence(log, key);
  const report = await verifyAuditFile(log.file, {
    key,
    sealDir: log.sealDir,
    logPath: log.sealsGiven ? false : log.file,
    ...(log.ownLog && log.project !== undefined ? { project: log.project } : {}),
  });
  const exitCode = VERDICT_EXIT_CODES[report.verdict];
  // "Nothing audited yet" only when verify agrees: seal files that do not verify (forged, or
  // garbled along with a deleted log) vouch for no records, yet they are tampering, not a fresh log.
  if (presence.state !== "present" && !values.json && (presence.sealedRecords > 0 || exitCode === NO_LOG)) {
    const code = absent(io, log, presence);
    if (code === NO_LOG) return code;
  }
  io.stdout.write(
    values.json
      ? `${JSON.stringify({ ...report, exitCode }, null, 2)}\n`
      : fitToTerminal(verdictText(report.summary, log.file), io.stdout),
  );
  return exitCode;
}

async function stats(io: CliIo, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(statsSpec, args);
  const log = findAuditLog(io, values, positionals[0]);
  const presence = logPresence(log, presenceKey(log));
  if (presence.state !== "present") return absent(io, log, presence);
  const result = await auditStats(log.file);
  io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${statsLines(result).join("\n")}\n`);
  return 0;
}

async function tail(io: CliIo, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(tailSpec, args);
  const lines = values.lines === undefined ? 10 : Number(values.lines);
  if (!Number.isInteger(lines) || lines < 0) throw usageError(tailSpec, "--lines must be a whole number");
  const log = findAuditLog(io, values, positionals[0]);
  const presence = logPresence(log, presenceKey(log));
  if (presence.state !== "present") {
    if (!values.follow) return absent(io, log, presence);
    printError(io, `${absentLogMessage(log, presence)}; waiting for records`);
  }
  // The last lines come in one burst: they are aligned together, and followed records keep the widths.
  const columns: ColumnWidths = { widths: [] };
  let burst: string[][] | undefined = [];
  const flush = () => {
    if (!burst) return;
    fitColumns(columns, burst);
    for (const row of burst) io.stdout.write(`${alignRow(columns, row)}\n`);
    burst = undefined;
  };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  try {
    await tailAudit(log.file, {
      lines,
      follow: values.follow,
      signal: controller.signal,
      onFollow: flush,
      onRecord: (entry) => {
        if (values.json) return void io.stdout.write(`${entry.text}\n`);
        const row = tailCells(entry);
        if (burst) burst.push(row);
        else {
          fitColumns(columns, [row]);
          io.stdout.write(`${alignRow(columns, row)}\n`);
        }
      },
    });
    flush();
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
 * code from verify, tail and stats (5, or 9 when seals vouch for records; verify reports seals that do
 * not verify as tampering instead of 5); a log or key that
 * cannot be used exits 1 naming it; a --seals that is not a folder, or a named key that does not
 * exist, is bad input (exit 2) naming the option and path — never a stack trace, never a hang.
 */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const { name, args: rest } = pickSubcommand(auditSpec, args);
  try {
    if (name === "verify") return await verify(io, rest);
    if (name === "stats") return await stats(io, rest);
    return await tail(io, rest);
  } catch (error) {
    if (!(error instanceof AuditLogError)) throw error;
    printError(io, error.message);
    return UNUSABLE;
  }
}
