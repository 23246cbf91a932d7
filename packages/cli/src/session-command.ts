import { resolve } from "node:path";
import { checkSession, GatehouseError, renderSessionTree, Session } from "@gatehouse/host";
import type { CliIo } from "./io.ts";
import { parseFlags } from "./parse-flags.ts";

const USAGE = "gatehouse session show FILE | gatehouse session check FILE [--json]";

/**
 * `gatehouse session show FILE` prints the tree; `gatehouse session check FILE` reports torn and
 * corrupt lines, broken parents, unknown entry types and tool calls without a result.
 * Contract: neither changes the file; `check` exits 1 when it finds an error, 0 otherwise.
 */
export async function sessionCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseFlags(rest, { json: { type: "boolean", default: false } }, USAGE);
  const target = positionals[0];
  if (!target) throw new GatehouseError("GH_USAGE", `a session FILE is required.\nusage: ${USAGE}`);
  const file = resolve(io.cwd, target);
  if (sub === "show") {
    const session = Session.open(file, { readOnly: true });
    for (const warning of session.warnings) io.stderr.write(`gatehouse: ${warning}\n`);
    io.stdout.write(renderSessionTree(session));
    return 0;
  }
  if (sub === "check") {
    const report = checkSession(file);
    if (values.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      const errors = report.problems.filter((p) => p.severity === "error").length;
      io.stdout.write(
        `${file}: ${report.entries} entries, ${errors} error(s), ${report.problems.length - errors} warning(s)\n`,
      );
      for (const p of report.problems)
        io.stdout.write(`  ${p.severity}${p.line ? ` line ${p.line}` : ""}: ${p.message}\n`);
    }
    return report.ok ? 0 : 1;
  }
  throw new GatehouseError("GH_USAGE", `unknown session command "${sub ?? ""}".\nusage: ${USAGE}`);
}
