import { GatehouseError, openProject } from "@gatehouse/host";
import {
  type AuditEntry,
  auditStats,
  resolveAuditFile,
  tailAudit,
  verifyAuditFile,
} from "@gatehouse/tool-audit/readers";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { parseFlags } from "./parse-flags.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";

const USAGE = `gatehouse audit verify [FILE] [--cwd DIR] [--json]
       gatehouse audit tail [FILE] [--lines N] [--follow] [--json] [--cwd DIR]
       gatehouse audit stats [FILE] [--cwd DIR] [--json]`;

/** Exit code of `audit verify` for a chain that is intact but ends early (a killed run). */
const INCOMPLETE = 3;

/** The audit file: the argument, else `config["tool-audit"].file` from the settings, else the default. */
function auditFile(io: CliIo, cwdFlag: string | undefined, positional: string | undefined): string {
  if (positional) return resolveAuditFile(positional, io.cwd);
  const cwd = projectDir(io, cwdFlag);
  const section = openProject({ cwd, env: io.env, packageBases: PACKAGE_BASES }, silentLogger(io)).settings.config[
    "tool-audit"
  ] as { file?: unknown } | undefined;
  return resolveAuditFile(typeof section?.file === "string" ? section.file : undefined, cwd);
}

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

/**
 * `gatehouse audit`: verify the hash chain, tail the records, or count calls per tool and outcome.
 * Contract: `verify` exits 0 when intact, 1 when a record is broken, reordered, inserted or
 * missing (or a line is torn or corrupt), 3 when the chain is intact but a run ended without
 * closing its session (killed): what the unflushed batch held is lost and the report says where.
 */
export async function auditCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseFlags(
    rest,
    {
      cwd: { type: "string" },
      json: { type: "boolean", default: false },
      lines: { type: "string" },
      follow: { type: "boolean", default: false },
    },
    USAGE,
  );
  const file = auditFile(io, values.cwd, positionals[0]);
  if (sub === "verify") {
    const report = await verifyAuditFile(file);
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${report.summary}\n`);
    return report.status === "ok" ? 0 : report.status === "incomplete" ? INCOMPLETE : 1;
  }
  if (sub === "stats") {
    const stats = await auditStats(file);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(
      `${file}: ${stats.records} records, ${stats.sessions} sessions, ${stats.ended} calls ended, ${stats.unfinished} unfinished\n`,
    );
    for (const [tool, s] of Object.entries(stats.tools)) {
      const outcomes = Object.entries(s.outcomes)
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join(", ");
      io.stdout.write(`  ${tool.padEnd(16)} ${outcomes}${s.unfinished ? `, unfinished ${s.unfinished}` : ""}\n`);
    }
    return 0;
  }
  if (sub === "tail") {
    const lines = values.lines === undefined ? 10 : Number(values.lines);
    if (!Number.isInteger(lines) || lines < 0)
      throw new GatehouseError("GH_USAGE", `--lines must be a whole number.\nusage: ${USAGE}`);
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once("SIGINT", stop);
    try {
      const result = await tailAudit(file, {
        lines,
        follow: values.follow,
        signal: controller.signal,
        onRecord: (entry) => io.stdout.write(`${values.json ? entry.text : line(entry)}\n`),
      });
      if (result.missing && !values.follow) io.stderr.write(`gatehouse: no audit file at ${file} yet\n`);
      return 0;
    } finally {
      process.off("SIGINT", stop);
    }
  }
  throw new GatehouseError("GH_USAGE", `unknown audit command "${sub ?? ""}".\nusage: ${USAGE}`);
}
